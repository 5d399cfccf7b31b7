// fetchText against a real HTTP server on 127.0.0.1: refused by default (loopback), allowed when
// the operator lists the host, redirects re-checked on every hop, size cap, timeout.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createProviders } from '../../../src/engine/providers/index.js';
import { fetchText, guardedLookup, type WebOptions } from '../../../src/engine/providers/web.js';

let server: http.Server;
let base: string;
let hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello from the test server');
        return;
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/redirect':
        res.writeHead(302, { location: url.searchParams.get('to') ?? '/text' }).end();
        return;
      case '/loop':
        res.writeHead(301, { location: '/loop' }).end();
        return;
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5000' }).end('x'.repeat(5000));
        return;
      case '/big-chunked': {
        // No content-length: the cap must count the bytes as they arrive.
        res.writeHead(200, { 'content-type': 'text/plain' });
        let sent = 0;
        const tick = setInterval(() => {
          if (sent > 100_000 || res.destroyed) return clearInterval(tick), res.end();
          res.write('y'.repeat(1000));
          sent += 1000;
        }, 1);
        return;
      }
      case '/slow':
        return; // never answers
      case '/stall':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        return; // the body never ends
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' }).end('PNG');
        return;
      default:
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const opts = (over: Partial<{ maxBytes: number; timeoutMs: number; signal: AbortSignal }> = {}) => ({
  signal: new AbortController().signal,
  maxBytes: 1024,
  timeoutMs: 2_000,
  ...over,
});
const allowed: WebOptions = { allowHosts: ['127.0.0.1'] };
const none: WebOptions = { allowHosts: [] };

describe('fetchText guard', () => {
  it('refuses the loopback test server by default, without connecting', async () => {
    hits = [];
    await expect(fetchText(`${base}/text`, opts(), none)).rejects.toThrow(
      /refused to fetch from 127\.0\.0\.1: address is loopback .*SWITCHBOARD_WEB_ALLOW_HOSTS/,
    );
    await expect(fetchText(`http://[::1]:1/text`, opts(), none)).rejects.toThrow(/address is loopback/);
    await expect(fetchText(`http://[::ffff:127.0.0.1]:1/`, opts(), none)).rejects.toThrow(/IPv4-mapped loopback/);
    // The URL parser normalises odd IPv4 spellings, so they cannot slip past the check.
    await expect(fetchText(`http://2130706433:1/`, opts(), none)).rejects.toThrow(/127\.0\.0\.1: address is loopback/);
    await expect(fetchText(`http://0x7f.1:1/`, opts(), none)).rejects.toThrow(/loopback/);
    expect(hits).toEqual([]);
  });

  it('checks names at connect time, through the socket lookup', async () => {
    hits = [];
    const port = new URL(base).port;
    // `localhost` goes through the system resolver and lands on loopback.
    await expect(fetchText(`http://localhost:${port}/text`, opts(), none)).rejects.toThrow(/localhost \((127\.0\.0\.1|::1)\): address is loopback/);
    // A name whose answers mix public and private addresses is refused whole.
    const resolve: WebOptions['resolve'] = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await expect(fetchText(`http://mixed.test:${port}/text`, opts(), { allowHosts: [], resolve })).rejects.toThrow(
      /mixed\.test \(127\.0\.0\.1\): address is loopback/,
    );
    // The lookup that is checked is the one the socket connects with: a resolver answering
    // differently on each call (rebinding) is asked exactly once per connection.
    let calls = 0;
    const rebinding: WebOptions['resolve'] = async () => (calls++ === 0 ? [{ address: '10.0.0.7', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    await expect(fetchText(`http://rebind.test:${port}/text`, opts(), { allowHosts: [], resolve: rebinding })).rejects.toThrow(/private/);
    expect(calls).toBe(1);
    expect(hits).toEqual([]);
  });

  it('fetches from an allowed host', async () => {
    expect(await fetchText(`${base}/text`, opts(), allowed)).toBe('hello from the test server');
    expect(await fetchText(`${base}/latin1`, opts(), allowed)).toBe('café');
  });

  it('follows redirects, re-checking every hop', async () => {
    expect(await fetchText(`${base}/redirect?to=/text`, opts(), allowed)).toBe('hello from the test server');
    const port = new URL(base).port;
    hits = [];
    // Allowed host → a private address literal, a metadata endpoint, a name that resolves to loopback.
    await expect(fetchText(`${base}/redirect?to=http://10.0.0.1/`, opts(), allowed)).rejects.toThrow(/10\.0\.0\.1: address is private/);
    await expect(fetchText(`${base}/redirect?to=http://169.254.169.254/latest/meta-data/`, opts(), allowed)).rejects.toThrow(/link-local/);
    await expect(fetchText(`${base}/redirect?to=http://localhost:${port}/text`, opts(), allowed)).rejects.toThrow(/address is loopback/);
    expect(hits.every((h) => h.startsWith('/redirect'))).toBe(true);
    await expect(fetchText(`${base}/redirect?to=file:///etc/passwd`, opts(), allowed)).rejects.toThrow(/only http and https/);
    await expect(fetchText(`${base}/loop`, opts(), allowed)).rejects.toThrow(/more than 5 redirects/);
  });

  it('refuses other schemes, credentials, non-2xx and non-text answers', async () => {
    await expect(fetchText('ftp://example.com/', opts(), allowed)).rejects.toThrow(/only http and https/);
    await expect(fetchText('not a url', opts(), allowed)).rejects.toThrow(/not a URL/);
    await expect(fetchText(`http://u:p@127.0.0.1:1/`, opts(), allowed)).rejects.toThrow(/credentials/);
    await expect(fetchText(`${base}/missing`, opts(), allowed)).rejects.toThrow(/answered HTTP 404/);
    await expect(fetchText(`${base}/image`, opts(), allowed)).rejects.toThrow(/image\/png, not text/);
  });

  it('caps the size, declared or streamed', async () => {
    await expect(fetchText(`${base}/big-declared`, opts(), allowed)).rejects.toThrow(/larger than 1024 bytes/);
    await expect(fetchText(`${base}/big-chunked`, opts(), allowed)).rejects.toThrow(/larger than 1024 bytes/);
    expect(await fetchText(`${base}/big-declared`, opts({ maxBytes: 5000 }), allowed)).toHaveLength(5000);
  });

  it('times out, before the headers and in the middle of the body, and honours cancellation', async () => {
    await expect(fetchText(`${base}/slow`, opts({ timeoutMs: 200 }), allowed)).rejects.toThrow(/timed out after 200 ms/);
    await expect(fetchText(`${base}/stall`, opts({ timeoutMs: 200 }), allowed)).rejects.toThrow(/timed out after 200 ms/);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await expect(fetchText(`${base}/slow`, opts({ signal: ac.signal }), allowed)).rejects.toThrow(/cancelled/);
  });
});

describe('createProviders', () => {
  it('uses config.engine.webAllowHosts', async () => {
    const refused = createProviders(loadConfig({}));
    await expect(refused.fetchText(`${base}/text`, opts())).rejects.toThrow(/loopback/);
    const ok = createProviders(loadConfig({ SWITCHBOARD_WEB_ALLOW_HOSTS: '127.0.0.1' }));
    expect(await ok.fetchText(`${base}/text`, opts())).toBe('hello from the test server');
    expect(ok.llm.name).toBe('local');
  });
});

describe('guardedLookup', () => {
  // Called the way node:net calls it; no connection is made.
  const call = (resolve: NonNullable<WebOptions['resolve']>, options: object) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((done) =>
      (guardedLookup(resolve) as unknown as (h: string, o: object, cb: (...a: unknown[]) => void) => void)('h.test', options, (err, address, family) =>
        done({ err: err as Error | null, address, family: family as number | undefined }),
      ),
    );
  const both: NonNullable<WebOptions['resolve']> = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '2606:2800:220:1::1', family: 6 },
  ];
  it('hands public addresses to the socket in the shape it asked for', async () => {
    expect(await call(both, { all: true })).toEqual({ err: null, address: await both('h'), family: undefined });
    expect(await call(both, {})).toEqual({ err: null, address: '93.184.216.34', family: 4 });
    expect(await call(both, { family: 6 })).toEqual({ err: null, address: '2606:2800:220:1::1', family: 6 });
  });
  it('fails on a refused address, no address, or a resolver error', async () => {
    expect((await call(async () => [{ address: 'fd00::1', family: 6 }], { all: true })).err?.message).toMatch(/unique-local/);
    expect((await call(async () => [], {})).err?.message).toMatch(/has no address/);
    expect((await call(async () => Promise.reject(new Error('ENOTFOUND')), {})).err?.message).toMatch(/cannot resolve h\.test: ENOTFOUND/);
    expect((await call(async () => [{ address: '8.8.8.8', family: 4 }], { family: 6 })).err?.message).toMatch(/no IPv6 address/);
  });
});
