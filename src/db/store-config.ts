// What the configuration says about the store, before it is opened: which one it is (PostgreSQL
// when DATABASE_URL is set, else PGlite in the data dir), its capabilities and where it is. The
// CLI decides from these without loading a driver; nothing outside src/db looks at which store
// it is.
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
