// One address holding many slow connections must not take the server offline (issue 10): the
// real `switchboard serve` process, with small deadlines set through the env, against a few
// hundred trickling connections from 127.0.0.2 while a well-behaved client on 127.0.0.1 keeps
// calling GET /v1/workflows. Speed-independent: nothing here asserts latency (bench:slow-clients
// does); bounds are generous multiples of the deadlines. Loopback only; bounded in count and time.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { exited, runCli, startServer, type ServerProcess } from '../helpers/process.js';

const REQUEST_TIMEOUT_MS = 3_000;
const KEEP_ALIVE_TIMEOUT_MS = 20_000;
const SLOW = 300;
const CAP = 256;

let t: TestDb;
let tmp: string;
let server: ServerProcess;
let port = 0;
let key = '';
const sockets: net.Socket[] = [];

beforeAll(async () => {
  t = await freshDb();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-slow-'));
  const store: Record<string, string> = onPostgres() ? { DATABASE_URL: t.url! } : { SWITCHBOARD_DATA_DIR: path.join(tmp, 'data') };
  server = await startServer(
    {
      ...store,
      SWITCHBOARD_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      SWITCHBOARD_BODY_IDLE_TIMEOUT_MS: '2000',
      SWITCHBOARD_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
      SWITCHBOARD_MAX_CONNECTIONS_PER_ADDRESS: String(CAP),
      LOG_LEVEL: 'info',
    },
  );
  port = Number(new URL(server.baseUrl).port);
  // Seeded through the CLI: on the embedded store it goes through the running server's admin socket.
  const file = path.join(tmp, 'fixture.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      accounts: [
        {
          ref: 'good',
          name: 'Good client',
          tier: 'enterprise',
          limits: { requests_per_minute: 1_000_000 },
          users: [{ ref: 'o', email: 'o@good.example', role: 'owner', name: 'O' }],
          keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read'] }],
        },
      ],
    }),
  );
  const seed = runCli(['seed', file, '--json'], store);
  let out = '';
  seed.stdout!.on('data', (d) => (out += String(d)));
  expect(await exited(seed)).toBe(0);
  key = JSON.parse(out).accounts.good.keys.k;
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  if (server) expect(await server.stop()).toBe(0);
  await t?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

interface Slow {
  /** Ms from connect to the server's close; null while open. */
  lifetime(): number | null;
  received(): string;
  closed: Promise<void>;
  sock: net.Socket;
}

/** A connection that sends `first` at once, then `each` every 500 ms until the server closes it. */
function slow(localAddress: string, first: string, each: (i: number) => string | null): Promise<Slow> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ port, host: '127.0.0.1', localAddress });
    sockets.push(sock);
    let t0 = 0;
    let life: number | null = null;
    let out = '';
    let timer: NodeJS.Timeout | null = null;
    sock.on('data', (d) => (out += d.toString('latin1')));
    sock.on('error', () => {});
    const closed = new Promise<void>((res) =>
      sock.on('close', () => {
        if (timer) clearInterval(timer);
        life = performance.now() - t0;
        res();
      }),
    );
    sock.once('connect', () => {
      t0 = performance.now();
      sock.write(first);
      let i = 0;
      timer = setInterval(() => {
        const next = each(i++);
        if (next !== null && !sock.destroyed) sock.write(next);
      }, 500);
      resolve({ lifetime: () => life, received: () => out, closed, sock });
    });
    sock.once('error', reject);
  });
}

const post = (url: string, length: number) => `POST ${url} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`;

const KINDS: Array<[string, string, (i: number) => string | null]> = [
  ['body trickled to a hook (the body is read before any check)', post('/hooks/automations/not-a-secret-0123456789', 10_000), () => ' '],
  ['body trickled to an unknown path', post('/no/such/path', 10_000), () => ' '],
  ['body that stops', post('/hooks/automations/not-a-secret-0123456789', 10_000), () => null],
  ['headers trickled', 'GET /v1/workflows HTTP/1.1\r\n', (i) => `X-Pad-${i}: y\r\n`],
];

function getWorkflows(): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, localAddress: '127.0.0.1', path: '/v1/workflows', agent: false, headers: { authorization: `Bearer ${key}` }, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('slow clients from one address (real serve process)', () => {
  it(`${SLOW} trickling connections are all closed by the server within its deadlines; the client on another address is never refused`, { timeout: 180_000 }, async () => {
    let stop = false;
    const outcomes: string[] = [];
    const good = (async () => {
      while (!stop) outcomes.push(await getWorkflows());
    })();
    const conns: Slow[] = [];
    for (let i = 0; i < SLOW; i++) {
      const [, first, each] = KINDS[i % KINDS.length];
      conns.push(await slow('127.0.0.2', first, each));
    }
    // Each must be closed by the server: at its deadline (3 s; 2 s for the stopped body), with
    // room for a loaded machine, but far below "held forever".
    const bound = REQUEST_TIMEOUT_MS * 10;
    await Promise.race([Promise.all(conns.map((c) => c.closed)), new Promise((r) => setTimeout(r, bound + 5_000))]);
    stop = true;
    await good;
    const open = conns.filter((c) => c.lifetime() === null).length;
    const late = conns.filter((c) => (c.lifetime() ?? Infinity) > bound).length;
    expect({ open, late }).toEqual({ open: 0, late: 0 });
    // A cut request gets no answer (no 408: not in the spec's catalogue).
    expect(conns.filter((c) => c.received() !== '').length).toBe(0);
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o !== '200')).toEqual([]);
    // Cuts are logged at info, never as internal errors.
    expect(server.output()).toContain('request cut');
    expect(server.output()).not.toMatch(/"level":(50|60)/);
  });

  it(`the per-address cap closes connection ${CAP + 1} at once; idle keep-alive connections are closed later`, { timeout: 180_000 }, async () => {
    // Each held connection has finished a request and idles on keep-alive (20 s): no deadline cuts it meanwhile.
    const held: Slow[] = [];
    for (let i = 0; i < CAP; i++) held.push(await slow('127.0.0.3', 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', () => null));
    for (const c of held) {
      const end = Date.now() + 30_000;
      while (!c.received().includes('\r\n\r\n') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    }
    const extra = await slow('127.0.0.3', '', () => null);
    await Promise.race([extra.closed, new Promise((r) => setTimeout(r, 10_000))]);
    expect(extra.lifetime()).not.toBeNull();
    expect(extra.received()).toBe('');
    expect(held.filter((c) => c.lifetime() !== null).length).toBe(0);
    // Another address is not affected.
    expect(await getWorkflows()).toBe('200');
    // The idle keep-alive connections are closed by the server after the keep-alive timeout.
    await Promise.race([Promise.all(held.map((c) => c.closed)), new Promise((r) => setTimeout(r, KEEP_ALIVE_TIMEOUT_MS * 4))]);
    expect(held.filter((c) => c.lifetime() === null).length).toBe(0);
  });
});
