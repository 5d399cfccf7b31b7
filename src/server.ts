// Wires a Config and an open Db into the app's dependencies: counters for the rate limits (memory,
// PostgreSQL or Redis, chosen by config), the cursor codec with its persisted secrets.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { Redis } from 'ioredis';
import { ConfigError, type Config } from './config.js';
import type { Db } from './db/db.js';
import { buildApp, type App, type AppDeps } from './http/app.js';
import { CursorCodec } from './http/cursor.js';
import type { Retirement } from './http/retirements.js';
import { MemoryCounter, PostgresCounter, RedisCounter, type WindowCounter } from './limits/window-counter.js';
import { deleteExpiredKeys } from './idempotency/store.js';
import { loadSecrets } from './secrets/store.js';
import { WorkerPageRenderer } from './lib/page-renderer.js';

export const CURSOR_SECRET = 'cursor';
const SECRET_REFRESH_MS = 60_000;
const IDEMPOTENCY_REAP_MS = 10 * 60_000;

export function makeCounters(config: Config, db: Db): { requests: WindowCounter; failedAuth: WindowCounter } {
  let c: WindowCounter;
  if (config.rateLimitStore === 'redis') {
    c = new RedisCounter(new Redis(config.redisUrl!, { maxRetriesPerRequest: 2 }));
  } else if (config.rateLimitStore === 'postgres') {
    c = new PostgresCounter(db);
  } else {
    c = new MemoryCounter();
  }
  // Keys are namespaced ("k:" per key, "fa:" per address), so one counter serves both limits.
  return { requests: c, failedAuth: c };
}

export interface StartOptions {
  logger?: AppDeps['logger'];
  retirements?: readonly Retirement[];
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
  const counters = makeCounters(config, db);
  const cursors = new CursorCodec(await loadSecrets(db, CURSOR_SECRET));
  const https = config.tls ? readTls(config.tls) : null;
  const onClose: (() => void | Promise<void>)[] = [];
  const pages = new WorkerPageRenderer();
  onClose.push(() => pages.close());
  const app = await buildApp({ config, db, counters, cursors, pages, logger: opts.logger, retirements: opts.retirements, https, onClose });
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
  const reaper = setInterval(() => {
    deleteExpiredKeys(db).catch((err) => app.log.warn({ err }, 'idempotency reaper failed'));
  }, IDEMPOTENCY_REAP_MS);
  reaper.unref();
  onClose.push(() => clearInterval(refresh), () => clearInterval(reaper));
  return app;
}
