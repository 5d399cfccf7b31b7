// A shared rate-limit store (Redis, PostgreSQL) that is down, stalled or slow: /v1 requests are
// still answered (never 500), limited by each process's own count; /readyz stays 200 and says
// "rate_limits": "degraded"; one warning a minute at most; shared counts again once the store
// answers. Redis: a closed port, a port that accepts connections and never answers, and (with
// REDIS_TEST_URL) a real Redis behind a proxy that is cut and restored. PostgreSQL: the counter
// table locked from another connection.
import net from 'node:net';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { configWith } from '../../src/config.js';
import type { App } from '../../src/http/app.js';
import { createApp } from '../../src/server.js';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { awaitFreshWindow } from '../helpers/process.js';
import { account, bearer, expectError, seed } from './fixtures.js';

const LIMIT = 5;
let t: TestDb;
let n = 0;

beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

/** A fresh key with a limit of LIMIT requests a minute. */
async function freshKey(): Promise<string> {
  const ref = `acct${++n}`;
  const a = await seed(t.db, account(ref, { limits: { requests_per_minute: LIMIT } }));
  return a[ref].keys.main;
}

// Nothing may escape: no uncaught exception or unhandled rejection anywhere in the process, and
// no "[ioredis] Unhandled error event" (printed when the client's 'error' event has no listener).
const escaped: unknown[] = [];
const onEscape = (e: unknown) => escaped.push(e);
let consoleError: MockInstance;
beforeEach(() => {
  escaped.length = 0;
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
  consoleError = vi.spyOn(console, 'error');
});
afterEach(() => {
  process.off('uncaughtException', onEscape);
  process.off('unhandledRejection', onEscape);
  const complaints = consoleError.mock.calls.filter((c) => String(c[0]).includes('ioredis'));
  consoleError.mockRestore();
  expect(escaped).toEqual([]);
  expect(complaints).toEqual([]);
});

interface LoggedApp {
  app: App;
  /** The rate-limit store's log lines (warn and info) so far. */
  storeLogs(): { level: number; msg: string; rate_limit_store: string; reason?: string }[];
}

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

/**
 * timeoutMs: 100 (the default) where the store fails at once; 1 s where the test needs the store
 * to count as answering while it is healthy, on a machine loaded enough to be slow now and then.
 */
async function appOn(store: 'redis' | 'postgres', redisUrl: string | null = null, timeoutMs = 100): Promise<LoggedApp> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const config = configWith({ rateLimitStore: store, redisUrl, rateLimitTimeoutMs: timeoutMs });
  const app = await createApp(config, t.db, { logger: { level: 'info', stream } });
  apps.push(app);
  return {
    app,
    storeLogs: () => lines.map((l) => JSON.parse(l)).filter((l) => l.rate_limit_store),
  };
}

const list = (app: App, key: string, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key), remoteAddress });
const readyz = async (app: App) => {
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  return { status: res.statusCode, body: res.json() };
};

async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * LIMIT requests answer 200 with RateLimit-* headers counting down this process's own window,
 * then 429 rate_limited; the failed-auth throttle still answers 429 past 20 wrong keys.
 */
async function expectLimitedOnItsOwn(app: App, key: string, alreadyCounted = 0): Promise<void> {
  for (let i = alreadyCounted; i < LIMIT; i++) {
    const res = await list(app, key);
    expect({ i, status: res.statusCode, body: res.statusCode === 200 ? '' : res.body }).toEqual({ i, status: 200, body: '' });
    expect(res.headers['ratelimit-limit']).toBe(String(LIMIT));
    expect(res.headers['ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  }
  for (let i = 0; i < 2; i++) {
    const res = await list(app, key);
    expectError(res, 429, 'rate_limit', 'rate_limited');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  }
  const addr = `10.77.${n}.${Math.floor(Math.random() * 250) + 1}`;
  for (let i = 0; i < 20; i++) expectError(await list(app, 'sk_live_wrong', addr), 401, 'authentication', 'invalid_api_key');
  expectError(await list(app, 'sk_live_wrong', addr), 429, 'rate_limit', 'too_many_failed_auth');
}

function expectOneWarning(logged: LoggedApp, store: string, reason: RegExp): void {
  const warns = logged.storeLogs().filter((l) => l.level === 40);
  expect(warns).toHaveLength(1);
  expect(warns[0]).toMatchObject({ rate_limit_store: store });
  expect(warns[0].msg).toMatch(/not answering/);
  expect(warns[0].reason).toMatch(reason);
}

/** A TCP port with nothing listening on it (bound, then released). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Accepts connections and never sends a byte. */
async function blackHole(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const s = net.createServer((sock) => {
    connections++;
    sockets.add(sock);
    sock.on('error', () => {});
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    connections: () => connections,
    close: async () => {
      for (const sock of sockets) sock.destroy();
      await new Promise((r) => s.close(r));
    },
  };
}

describe('Redis that cannot be reached', () => {
  it('a closed port: requests are answered and limited per process, /readyz 200 degraded, one warning', async () => {
    const key = await freshKey();
    const logged = await appOn('redis', `redis://127.0.0.1:${await closedPort()}`);
    await awaitFreshWindow(15_000);
    await expectLimitedOnItsOwn(logged.app, key);
    expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
    expectOneWarning(logged, 'redis', /^Redis is not connected \(connect ECONNREFUSED/);
  });

  it('a port that accepts connections and never answers: the same, without waiting on it', async () => {
    const hole = await blackHole();
    try {
      const key = await freshKey();
      const logged = await appOn('redis', hole.url);
      await awaitFreshWindow(15_000);
      await expectLimitedOnItsOwn(logged.app, key);
      expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
      expectOneWarning(logged, 'redis', /^Redis is not connected/);
      // The silent connection is dropped (after 10 × the timeout, at least 1 s) and another tried.
      await until('a new connection', async () => hole.connections(), (c) => c >= 2);
    } finally {
      await hole.close();
    }
  });
});

/**
 * A TCP proxy to a real Redis that can be cut (refuses connections, drops open ones), frozen
 * (connections stay open, nothing gets through: a stalled server) and restored.
 */
async function cuttableProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  let frozen = false;
  // While frozen, bytes are held (in order) and delivered on thaw: a paused server, not a lossy one.
  const held = new Map<net.Socket, Buffer[]>();
  const up = async () => {
    frozen = false;
    server = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      const pair: [net.Socket, net.Socket][] = [
        [client, upstream],
        [upstream, client],
      ];
      for (const [from, to] of pair) {
        sockets.add(from);
        held.set(to, []);
        from.on('error', () => {});
        from.on('data', (buf) => {
          if (frozen) held.get(to)!.push(buf);
          else to.write(buf);
        });
        from.on('close', () => {
          sockets.delete(from);
          held.delete(from);
          to.destroy();
        });
      }
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    port = (server.address() as net.AddressInfo).port;
  };
  const down = async () => {
    const s = server!;
    server = null;
    const closed = new Promise((r) => s.close(r));
    for (const sock of sockets) sock.destroy();
    await closed;
  };
  await up();
  return {
    url: () => `redis://127.0.0.1:${port}`,
    up,
    down,
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const [to, bufs] of held) for (const b of bufs.splice(0)) if (!to.destroyed) to.write(b);
    },
    close: () => (server ? down() : Promise.resolve()),
  };
}

describe.runIf(process.env.REDIS_TEST_URL)('Redis that goes away and comes back', () => {
  it('falls back while it is away and shares counts again once it is back', async () => {
    const redisUrl = new URL(process.env.REDIS_TEST_URL!);
    const proxy = await cuttableProxy(redisUrl);
    try {
      const key = await freshKey();
      const viaProxy = await appOn('redis', proxy.url(), 1_000);
      const direct = await appOn('redis', redisUrl.toString(), 1_000);
      await awaitFreshWindow(15_000);
      expect((await list(viaProxy.app, key)).statusCode).toBe(200);
      await until('healthy', () => readyz(viaProxy.app), (r) => r.body.rate_limits === 'ok');

      await proxy.down();
      const whileDown = await until('the fallback', () => list(viaProxy.app, key), (r) => r.statusCode === 200 && r.headers['ratelimit-remaining'] !== undefined);
      expect(whileDown.statusCode).toBe(200);
      expect(await readyz(viaProxy.app)).toMatchObject({ status: 200, body: { rate_limits: 'degraded' } });

      await proxy.up();
      await until('recovery', () => readyz(viaProxy.app), (r) => r.status === 200 && r.body.rate_limits === 'ok', 30_000);
      expect(viaProxy.storeLogs().map((l) => l.level)).toEqual([40, 30]); // one warning, one recovery note

      // Shared again: a fresh key counted alternately by both apps counts down one window.
      const other = await freshKey();
      await awaitFreshWindow(20_000);
      const remaining = [];
      for (let i = 0; i < 4; i++) {
        const r = await list(i % 2 ? viaProxy.app : direct.app, other);
        expect(r.statusCode).toBe(200);
        remaining.push(r.headers['ratelimit-remaining']);
      }
      expect(remaining).toEqual(['4', '3', '2', '1']);
    } finally {
      await proxy.close();
    }
  });

  it('a Redis that stops answering (connection open, no reply): falls back after the timeout, then recovers', async () => {
    const proxy = await cuttableProxy(new URL(process.env.REDIS_TEST_URL!));
    try {
      const key = await freshKey();
      const logged = await appOn('redis', proxy.url(), 1_000);
      await awaitFreshWindow(15_000);
      const first = await list(logged.app, key);
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-remaining']).toBe(String(LIMIT - 1));
      await until('healthy', () => readyz(logged.app), (r) => r.body.rate_limits === 'ok');
      proxy.freeze();
      await expectLimitedOnItsOwn(logged.app, key, 1);
      expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
      expectOneWarning(logged, 'redis', /no answer within 1000 ms/);
      // The stalled connection is dropped (socketTimeout) and a new one made once it answers.
      proxy.thaw();
      await until('recovery', () => readyz(logged.app), (r) => r.body.rate_limits === 'ok', 30_000);
    } finally {
      await proxy.close();
    }
  });
});

describe.runIf(onPostgres())('a PostgreSQL counter that does not answer in time', () => {
  it('falls back while the counter table is locked, never holds a connection for long, and recovers', async () => {
    const key = await freshKey();
    const logged = await appOn('postgres', null, 1_000);
    await awaitFreshWindow(20_000);
    const first = await list(logged.app, key);
    expect(first.statusCode).toBe(200);
    await until('healthy', () => readyz(logged.app), (r) => r.body.rate_limits === 'ok');

    const locker = new pg.Client({ connectionString: t.url! });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table rate_counters in exclusive mode');
      await expectLimitedOnItsOwn(logged.app, key, 1);
      expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
      expectOneWarning(logged, 'postgres', /no answer within 1000 ms/);
      // The statements waiting on the lock are cancelled by the server (statement_timeout), so
      // they give their connections back while the lock is still held.
      const waiting = () =>
        locker.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      await until('the waiting statements to be cancelled', waiting, (r) => r.rows[0].n === 0);
    } finally {
      await locker.query('commit').catch(() => {});
      await locker.end();
    }
    await until('recovery', () => readyz(logged.app), (r) => r.status === 200 && r.body.rate_limits === 'ok');
    // Shared again: each request is one more on the counter row.
    const other = await freshKey();
    await awaitFreshWindow(20_000);
    for (let i = 0; i < 3; i++) expect((await list(logged.app, other)).headers['ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
    const [row] = await t.db.query<{ count: number }>(
      `select c.count from rate_counters c join api_keys k on c.key = 'k:' || k.id join accounts a on a.id = k.account_id
        where a.name = $1`,
      [`Account acct${n}`],
    );
    expect(row.count).toBe(3);
  });
});
