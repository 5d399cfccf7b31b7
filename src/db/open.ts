// Opens the store the config names: PostgreSQL when DATABASE_URL is set, else PGlite in the data
// dir (store-config.ts says the same without opening it).
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { openPglite } from './pglite.js';
import { PostgresDb } from './postgres.js';

export async function openDb(config: Config): Promise<Db> {
  if (config.databaseUrl) {
    const db = new PostgresDb(config.databaseUrl, config.pgPoolMax);
    await db.query('select 1');
    return db;
  }
  return openPglite({ dataDir: config.dataDir });
}
