// Opens the store the config names: PostgreSQL when DATABASE_URL is set, else PGlite in the data
// dir (store-config.ts says the same without opening it). Each adapter is loaded only when it is
// the one opened: a process on one store never loads the other's driver (a fifth of the start-up
// module loading of an embedded-store process was `pg`, and the reverse for PGlite's glue).
import type { Config } from '../config.js';
import type { Db, TransactionRetryLog } from './db.js';

export async function openDb(config: Config, opts: { retryLog?: TransactionRetryLog } = {}): Promise<Db> {
  if (config.databaseUrl) {
    const { PostgresDb } = await import('./postgres.js');
    const db = new PostgresDb(config.databaseUrl, config.pgPoolMax, undefined, config.pgPipelineLanes);
    db.retryLog = opts.retryLog;
    await db.query('select 1');
    return db;
  }
  const { openPglite } = await import('./pglite.js');
  const db = await openPglite({ dataDir: config.dataDir });
  db.retryLog = opts.retryLog;
  return db;
}

/**
 * Opens the embedded store in `dataDir` (a restored one, before it is put in place) so it is known
 * to start, reads its schema version and closes it again.
 */
export async function embeddedSchemaVersion(dataDir: string): Promise<number> {
  const { openPglite } = await import('./pglite.js');
  const { appliedVersion } = await import('./migrate.js');
  const db = await openPglite({ dataDir });
  try {
    return await appliedVersion(db);
  } finally {
    await db.close();
  }
}
