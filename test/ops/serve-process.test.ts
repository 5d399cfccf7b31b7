// The serve process as an operator runs it: HTTPS when TLS_CERT_FILE/TLS_KEY_FILE are set,
// /healthz and /readyz, graceful shutdown on SIGTERM (exit 0, in-flight requests finished).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { captured, exited, runCli, startServer } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';

let t: TestDb;
let tmp: string;
beforeAll(async () => {
  t = await freshDb();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-serve-'));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The store env for a child: this file's PostgreSQL database, or a fresh embedded data dir. */
function storeEnv(name: string): Record<string, string> {
  return onPostgres() ? { DATABASE_URL: t.url! } : { SWITCHBOARD_DATA_DIR: path.join(tmp, name) };
}

function getInsecure(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // Self-signed test certificate: verification is off for this loopback call only.
    https
      .get(url, { rejectUnauthorized: false }, (res) => {
        let body = '';
        res.on('data', (d) => (body += String(d)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/**
 * A GET whose headers arrive in two parts: the server has accepted the connection and started
 * reading the request when `half` resolves; `finish()` sends the rest.
 */
function slowGet(url: string): { half: Promise<void>; finish: () => void; status: Promise<number> } {
  const u = new URL(url);
  const sock = net.connect(Number(u.port), u.hostname);
  let data = '';
  sock.on('data', (d) => (data += String(d)));
  const status = new Promise<number>((resolve, reject) => {
    sock.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    sock.on('error', reject);
  });
  const half = new Promise<void>((resolve) =>
    sock.on('connect', () => sock.write(`GET ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\n`, () => setTimeout(resolve, 300))),
  );
  return { half, status, finish: () => sock.write('Connection: close\r\n\r\n') };
}

describe('serve', () => {
  it('serves HTTPS directly when TLS_CERT_FILE and TLS_KEY_FILE are set', async () => {
    const cert = path.join(tmp, 'cert.pem');
    const key = path.join(tmp, 'key.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-keyout', key, '-out', cert,
    ], { stdio: 'ignore' });
    const s = await startServer({ ...storeEnv('tls'), TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    try {
      expect(s.baseUrl.startsWith('https://')).toBe(true);
      const r = await getInsecure(`${s.baseUrl}/healthz`);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ status: 'ok' });
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 180_000); // a process start on a loaded machine can take tens of seconds

  it('answers /readyz once migrated, and stops cleanly on SIGTERM with requests in flight', async () => {
    const s = await startServer(storeEnv('plain'));
    const ready = await fetch(`${s.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', store: onPostgres() ? 'postgres' : 'pglite' });
    // Requests the server is already reading when the signal comes still get their answers.
    const reqs = Array.from({ length: 5 }, () => slowGet(`${s.baseUrl}/v1/workflows`));
    await Promise.all(reqs.map((r) => r.half));
    s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const r of reqs) r.finish();
    expect(await Promise.all(reqs.map((r) => r.status))).toEqual(Array(5).fill(401));
    expect(await exited(s.child)).toBe(0);
    if (!onPostgres()) expect(fs.existsSync(path.join(tmp, 'plain', 'switchboard.lock'))).toBe(false);
  }, 180_000);

  it('stops cleanly on a SIGTERM that comes while it is still starting', async () => {
    // A fresh embedded store logs "applied migrations" early in start-up, with the app, the
    // engine and the sender still to come: the signal lands in the middle of starting.
    const dir = path.join(tmp, 'starting');
    const { child, output } = captured(runCli(['serve'], { SWITCHBOARD_DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' }));
    await untilReady(child, () => output().includes('"msg":"applied migrations"'), { what: 'serve to apply its migrations', output, pollMs: 5 });
    child.kill('SIGTERM');
    // The default action would end it by the signal (exit code null), its data dir still locked.
    expect(await exited(child)).toBe(0);
    expect(output()).toContain('"msg":"stopped"');
    expect(fs.existsSync(path.join(dir, 'switchboard.lock'))).toBe(false);
  }, 180_000);
});
