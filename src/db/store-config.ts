// What the configuration says about the store, before it is opened: which one it is (PostgreSQL
// when DATABASE_URL is set, else PGlite in the data dir), its capabilities and where it is. The
// CLI decides from these without loading a driver; nothing outside src/db looks at which store
// it is.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { PGLITE_CAPABILITIES, POSTGRES_CAPABILITIES, type StoreCapabilities } from './db.js';

type StoreConfig = Pick<Config, 'databaseUrl' | 'dataDir'>;

export function storeCapabilities(config: StoreConfig): StoreCapabilities {
  return config.databaseUrl ? POSTGRES_CAPABILITIES : PGLITE_CAPABILITIES;
}

/** Where the store is, without credentials (a DATABASE_URL may carry a password). */
export function describeStore(config: StoreConfig): string {
  if (!config.databaseUrl) return `pglite, data dir ${config.dataDir}`;
  try {
    const u = new URL(config.databaseUrl);
    return `postgres ${u.hostname}${u.port ? ':' + u.port : ''}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

/** Where PGlite keeps its database inside the data dir (beside the lock, the admin socket, the set-up token). */
export function pgliteDataPath(dataDir: string): string {
  return path.join(dataDir, 'pgdata');
}

/**
 * Whether the data dir holds an embedded store (PGlite writes PostgreSQL's PG_VERSION when it
 * creates one). Looked at without opening it: opening a missing store would create one.
 */
export function embeddedStoreExists(dataDir: string): boolean {
  return fs.existsSync(path.join(pgliteDataPath(dataDir), 'PG_VERSION'));
}
