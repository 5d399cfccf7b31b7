// The hub's assets compressed: the build writes .br and .gz beside each text file
// (web/vite.config.ts) and the server sends one to a client that accepts it, with Vary, and the
// file itself to one that does not; the decompressed bytes are the file's. /v1 and the hub's JSON
// are never compressed (their bodies stay byte-identical whatever the client accepts, and a body
// carrying the CSRF token is never compressed beside text an attacker chose: BREACH).
import fs from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/hub/static.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient } from '../helpers/hub.js';
import { seed } from '../http/fixtures.js';
// @ts-expect-error a plain .mjs script, no types
import { initialJs } from '../../scripts/web-size.mjs';

let t: TestApp;
/** The biggest script index.html loads first: the one the issue found served uncompressed. */
let main: string;
let bytes: Buffer;

beforeAll(async () => {
  expect(fs.existsSync(path.join(WEB_DIST, 'index.html')), 'web/dist is not built: npx vite build web').toBe(true);
  const { files } = initialJs() as { files: { file: string; bytes: number }[] };
  main = [...files].sort((a, b) => b.bytes - a.bytes)[0].file;
  bytes = fs.readFileSync(path.join(WEB_DIST, main.slice(1)));
  t = await testApp();
});
afterAll(() => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('the initial script', () => {
  it('is built with brotli and gzip copies beside it', () => {
    for (const ext of ['.br', '.gz']) expect(fs.existsSync(path.join(WEB_DIST, main.slice(1) + ext)), main + ext).toBe(true);
  });

  it('is sent brotli-compressed to a browser that accepts br, the decompressed bytes the file', async () => {
    const res = await get(main, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.length).toBeLessThan(bytes.length / 2);
    expect(brotliDecompressSync(res.rawPayload).equals(bytes)).toBe(true);
  });

  it('is sent gzip-compressed to a client that accepts only gzip', async () => {
    const res = await get(main, { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).equals(bytes)).toBe(true);
  });

  it('is sent as it is to a client that asks for no encoding, or only for one not built', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }] as Record<string, string>[]) {
      const res = await get(main, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.rawPayload.equals(bytes)).toBe(true);
    }
  });
});

describe('JSON', () => {
  it('is never compressed, /v1 or the hub, whatever the client accepts', async () => {
    const s = await seed(t.db, {
      ref: 'acme',
      name: 'Acme',
      users: [{ ref: 'owner', email: 'owner@acme.example', role: 'owner', password: null, name: '' }],
      keys: [{ ref: 'k', name: 'Reports', scopes: ['usage:read'] }],
    });
    const owner = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.owner, email: 'owner@acme.example' });
    const plain = await owner.get('/hub/api/session');
    const asked = await owner.request({ method: 'GET', url: '/hub/api/session', headers: { 'accept-encoding': 'br, gzip' } });
    expect(asked.headers['content-encoding']).toBeUndefined();
    expect(asked.body).toBe(plain.body);
    const v1 = await get('/v1/usage', { authorization: `Bearer ${s.acme.keys.k}`, 'accept-encoding': 'br, gzip' });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.headers['content-encoding']).toBeUndefined();
  });
});
