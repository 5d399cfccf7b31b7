// Wires a Config and an open Db into the app's dependencies: counters for the rate limits (memory,
// PostgreSQL or Redis, chosen by config), the cursor codec with its persisted secrets.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import type { Redis as RedisClient } from 'ioredis';
import { ConfigError, type Config } from './config.js';
import type { Db } from './db/db.js';
import { buildApp, type App } from './app.js';
import type { AppDeps } from './http/deps.js';
import { CursorCodec } from './http/cursor.js';
import type { Retirement } from './http/retirements.js';
import { FallbackCounter, type CounterLog } from './limits/fallback-counter.js';
import { MemoryCounter, PostgresCounter, RedisCounter, type PeekableCounter, type WindowCounter } from './limits/window-counter.js';
import { deleteExpiredKeys } from './idempotency/store.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './domain/hub.js';
import { deleteExpiredSessions } from './hub/sessions/store.js';
import { loadSecrets } from './secrets/store.js';
import { WorkerPageRenderer } from './lib/page-renderer.js';

export const CURSOR_SECRET = 'cursor';
const SECRET_REFRESH_MS = 60_000;
const IDEMPOTENCY_REAP_MS = 10 * 60_000;

/** How long a starting server waits at most for Redis to connect. */
const START_WAIT_MS = 2_000;

/** A shared store that has not answered for this long is treated as stalled (connection dropped, statement cancelled). */
function storeStallMs(config: Config): number {
  return Math.max(1_000, 10 * config.rateLimitTimeoutMs);
}

/**
 * The rate-limit counter. A shared store (Redis, PostgreSQL) is wrapped in a FallbackCounter: when
 * it fails or does not answer within rateLimitTimeoutMs, each process counts on its own.
 */
export async function makeCounters(
  config: Config,
  db: Db,
  log: CounterLog,
  wrapStore: (store: PeekableCounter) => PeekableCounter = (store) => store,
  now: () => number = Date.now,
): Promise<{ requests: WindowCounter; failedAuth: PeekableCounter }> {
  const stallMs = storeStallMs(config);
  let c: PeekableCounter;
  if (config.rateLimitStore === 'redis') {
    // Loaded only when configured: ioredis is forty modules a process without Redis never needs.
    const { Redis } = await import('ioredis');
    const redis: RedisClient = new Redis(config.redisUrl!, {
      // Fail fast while disconnected (the fallback answers) instead of queueing commands until
      // Redis returns; commands cut off by a dropped connection fail at once and are not re-sent.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // A server that accepts connections but does not answer: the connection is dropped and
      // re-opened (ioredis keeps reconnecting, at most 2 s apart), so it recovers on its own.
      connectTimeout: stallMs,
      socketTimeout: stallMs,
    });
    const counter = new RedisCounter(redis);
    // A Redis that is down at start: the fallback from the first request. Connecting takes
    // milliseconds when it is up, so the start waits 2 s at most (not the stall bound, 10 s by default).
    await counter.connected(Math.min(stallMs, START_WAIT_MS));
    c = new FallbackCounter(wrapStore(counter), { store: 'redis', timeoutMs: config.rateLimitTimeoutMs, log, now });
  } else if (config.rateLimitStore === 'postgres') {
    // On PostgreSQL the counter has a small pool of its own whose statements the server cancels:
    // a locked or slow counter row holds none of the API's connections.
    const own = db.boundedPool?.({ max: 4, timeoutMs: stallMs }) ?? null;
    c = new FallbackCounter(wrapStore(new PostgresCounter(own ?? db, now, own)), {
      store: 'postgres',
      timeoutMs: config.rateLimitTimeoutMs,
      log,
      now,
    });
  } else {
    c = new MemoryCounter(now);
  }
  // Keys are namespaced ("k:" per key, "fa:" per address), so one counter serves both limits.
  return { requests: c, failedAuth: c };
}

export interface StartOptions {
  logger?: AppDeps['logger'];
  pause?: AppDeps['pause'];
  retirements?: readonly Retirement[];
  /** Tests: wraps the shared rate-limit store (Redis, PostgreSQL) before the fallback, to make it late. */
  wrapCounterStore?: (store: PeekableCounter) => PeekableCounter;
  /**
   * Tests: the rate-limit counters' clock (Redis keeps its own), so a test that counts within one
   * minute never sees its window end halfway on a slow machine.
   */
  counterClock?: () => number;
  /** serve's drain switch (load-shedding.ts), thrown on its first SIGTERM. */
  drain?: AppDeps['drain'];
  metrics?: AppDeps['metrics'];
}

/** The certificate and key, checked: a file that cannot be read or is not PEM is named by its variable. */
function readTls(tls: { certFile: string; keyFile: string }): { cert: Buffer; key: Buffer } {
  const read = (name: string, file: string, check: (b: Buffer) => unknown): Buffer => {
    let b: Buffer;
    try {
      b = fs.readFileSync(file);
    } catch (err) {
      throw new ConfigError(`${name} (${file}) cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    try {
      check(b);
    } catch {
      throw new ConfigError(`${name} (${file}) is not a PEM ${name === 'TLS_CERT_FILE' ? 'certificate' : 'private key'}`);
    }
    return b;
  };
  return {
    cert: read('TLS_CERT_FILE', tls.certFile, (b) => new X509Certificate(b)),
    key: read('TLS_KEY_FILE', tls.keyFile, (b) => createPrivateKey(b)),
  };
}

/** Builds the app over an open, migrated store. Closing the app releases its counters, not the store. */
export async function createApp(config: Config, db: Db, opts: StartOptions = {}): Promise<App> {
  // The counters exist before the app (and its logger) does; they log only once requests arrive.
  let logTo: App | null = null;
  const counters = await makeCounters(config, db, {
    warn: (obj, msg) => logTo?.log.warn(obj, msg),
    info: (obj, msg) => logTo?.log.info(obj, msg),
  }, opts.wrapCounterStore, opts.counterClock);
  let cursors: CursorCodec;
  let https: { cert: Buffer; key: Buffer } | null;
  try {
    cursors = new CursorCodec(await loadSecrets(db, CURSOR_SECRET));
    https = config.tls ? readTls(config.tls) : null;
  } catch (err) {
    await counters.requests.close(); // its Redis connection or pool would keep the process alive
    throw err;
  }
  const onClose: (() => void | Promise<void>)[] = [];
  const pages = new WorkerPageRenderer();
  onClose.push(() => pages.close());
  const app = await buildApp({ config, db, counters, cursors, pages, logger: opts.logger, retirements: opts.retirements, pause: opts.pause, https, onClose, drain: opts.drain, metrics: opts.metrics });
  logTo = app;
  // A rotated cursor secret (switchboard cursor-secret rotate, from any process) reaches this
  // process within a minute; until then it signs with the previous secret, which stays valid.
  const refresh = setInterval(() => {
    loadSecrets(db, CURSOR_SECRET).then(
      (s) => cursors.setSecrets(s),
      (err) => app.log.warn({ err }, 'could not reload the cursor secrets'),
    );
  }, SECRET_REFRESH_MS);
  refresh.unref();
  // Idempotency keys are remembered for 24 hours; the reaper removes older ones (a lookup also
  // treats an expired row as absent, so the reaper only keeps the table small).
  // Hub sessions past either expiry are never found by a lookup; the same reaper deletes them.
  const reaper = setInterval(() => {
    deleteExpiredKeys(db).catch((err) => app.log.warn({ err }, 'idempotency reaper failed'));
    if (config.hub) deleteExpiredSessions(db, SESSION_IDLE_MS, SESSION_ABSOLUTE_MS).catch((err) => app.log.warn({ err }, 'hub session reaper failed'));
  }, IDEMPOTENCY_REAP_MS);
  reaper.unref();
  onClose.push(() => clearInterval(refresh), () => clearInterval(reaper));
  return app;
}
