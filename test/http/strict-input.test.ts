// Input the pipeline must refuse in the spec's terms on every route: integer query parameters
// written in anything but decimal digits, and requests Node's HTTP parser itself refuses (they
// never reach fastify's pipeline, but still get the error body and an X-Request-Id).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed, UUID_RE } from '../http/fixtures.js';

let t: TestApp;
let a: AccountSeedResult;

beforeAll(async () => {
  t = await testApp();
  ({ a } = await seed(t.db, account('a', { tier: 'enterprise', workflows: Array.from({ length: 30 }, (_, i) => ({ ref: `w${i}` })) })));
});
afterAll(() => t?.close());

// Spec, "Query parameters common to lists": limit is an integer, 1 to 100; Errors: 400
// invalid_parameter "A query parameter has a value it cannot take". The query validator coerces with
// JavaScript's Number(), which alone would take hexadecimal, binary and exponent notations.
describe('limit takes decimal integers only (400 invalid_parameter otherwise)', () => {
  it.each(['0x10', '1e1', '0b11', '+5', ' 5', '5 ', '1.0', '-0', '1_0', 'Infinity'])(
    'limit=%j → 400 invalid_parameter (param limit)',
    async (v) => {
      const res = await t.app.inject({ method: 'GET', url: `/v1/workflows?limit=${encodeURIComponent(v)}`, headers: bearer(a.keys.main) });
      expectError(res, 400, 'invalid_request', 'invalid_parameter', 'limit');
    },
  );

  it('decimal digits are taken (a leading zero is still decimal)', async () => {
    for (const [v, n] of [['7', 7], ['07', 7], ['100', 30]] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/workflows?limit=${v}`, headers: bearer(a.keys.main) });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toHaveLength(n);
    }
  });
});

/** Sends raw bytes over a real socket and returns what the server wrote back. */
function rawHttp(port: number, data: string): Promise<string> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let out = '';
    const done = () => {
      sock.destroy();
      resolve(out);
    };
    sock.on('data', (d) => (out += d.toString('latin1')));
    sock.on('error', done);
    sock.on('close', done);
    sock.write(data);
    setTimeout(done, 2000);
  });
}

function parseRaw(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

// Spec, Endpoints: "Every response carries X-Request-Id"; Errors: "Every error has the body
// { "error": { ... } }" with request_id "Also sent as header X-Request-Id on every response".
// The catalogue has no code for a request that is not HTTP: 400 invalid_parameter is the nearest.
describe('X-Request-Id and the error body also on requests the HTTP parser refuses', () => {
  let port = 0;
  beforeAll(async () => {
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });

  it.each([
    ['a malformed header line', 'bad header line\r\n'],
    ['headers over the size limit (431)', `X-Big: ${'a'.repeat(20_000)}\r\n`],
  ])('%s → X-Request-Id and { error: { type, code, message, request_id } }', async (_name, extra) => {
    const text = await rawHttp(port, `GET /v1/workflows HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${a.keys.main}\r\n${extra}\r\n`);
    const res = parseRaw(text);
    expect(res.status).toBe(400);
    expect(res.headers['x-request-id']).toMatch(UUID_RE);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const body = JSON.parse(res.body);
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toMatchObject({ type: 'invalid_request', code: 'invalid_parameter', request_id: res.headers['x-request-id'] });
    expect(typeof body.error.message).toBe('string');
    expect(body.error.param).toBeUndefined();
  });
});
