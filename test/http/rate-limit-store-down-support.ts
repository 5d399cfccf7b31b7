// What the rate-limit-store-down files share: a store for the file, fresh keys limited to LIMIT
// requests a minute, apps on a given shared store whose log lines are kept, the checks that nothing
// escaped, and the network stand-ins (a closed port, a black hole, a proxy that can be cut).
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi, type MockInstance } from 'vitest';
import { configWith } from '../../src/config.js';
import type { App } from '../../src/http/app.js';
import { createApp } from '../../src/server.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { account, bearer, expectError, seed } from './fixtures.js';

export const LIMIT = 5;

export interface LoggedApp {
  app: App;
  /** The rate-limit store's log lines (warn and info) so far. */
  storeLogs(): { level: number; msg: string; rate_limit_store: string; reason?: string }[];
}

export interface StoreDownHarness {
  /** The file's store (inside tests and hooks). */
  db(): TestDb;
  /** A fresh account with a key limited to LIMIT requests a minute; its name is `Account <ref>`. */
  freshKey(): Promise<string>;
  /** The ref of the account freshKey made last. */
  lastRef(): string;
  appOn(store: 'redis' | 'postgres', redisUrl?: string | null, timeoutMs?: number): Promise<LoggedApp>;
}

/** Registers the file's hooks (store, escape checks, app clean-up) and returns what its tests use. */
export function storeDownHarness(): StoreDownHarness {
  let t: TestDb | null = null;
  let n = 0;
  const db = (): TestDb => {
    if (!t) throw new Error('the store is made in beforeAll');
    return t;
  };
  beforeAll(async () => {
    t = await freshDb();
  });
  afterAll(() => t?.close());

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
    const app = await createApp(config, db().db, { logger: { level: 'info', stream } });
    apps.push(app);
    return {
      app,
      storeLogs: () => lines.map((l) => JSON.parse(l)).filter((l) => l.rate_limit_store),
    };
  }

  return {
    db,
    appOn,
    lastRef: () => `acct${n}`,
    async freshKey() {
      const ref = `acct${++n}`;
      const a = await seed(db().db, account(ref, { limits: { requests_per_minute: LIMIT } }));
      return a[ref].keys.main;
    },
  };
}

export const list = (app: App, key: string, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key), remoteAddress });
export const readyz = async (app: App) => {
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  return { status: res.statusCode, body: res.json() };
};

export async function until<T>(what: string, fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
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
export async function expectLimitedOnItsOwn(app: App, key: string, alreadyCounted = 0): Promise<void> {
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
  const addr = `10.77.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
  for (let i = 0; i < 20; i++) expectError(await list(app, 'sk_live_wrong', addr), 401, 'authentication', 'invalid_api_key');
  expectError(await list(app, 'sk_live_wrong', addr), 429, 'rate_limit', 'too_many_failed_auth');
}

export function expectOneWarning(logged: LoggedApp, store: string, reason: RegExp): void {
  const warns = logged.storeLogs().filter((l) => l.level === 40);
  expect(warns).toHaveLength(1);
  expect(warns[0]).toMatchObject({ rate_limit_store: store });
  expect(warns[0].msg).toMatch(/not answering/);
  expect(warns[0].reason).toMatch(reason);
}

/** A TCP port with nothing listening on it (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Accepts connections and never sends a byte. */
export async function blackHole(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
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

/**
 * A TCP proxy to a real Redis that can be cut (refuses connections, drops open ones), frozen
 * (connections stay open, nothing gets through: a stalled server) and restored.
 */
export async function cuttableProxy(target: URL) {
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
