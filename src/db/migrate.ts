// Numbered SQL migrations (migrations/NNNN_name.sql), applied in order in one transaction under
// a store-wide lock, so two processes starting together cannot both apply them. Each script runs
// whole (tx.exec): the server splits it into statements.
//
// The tables live in their own schema (db.ts SCHEMA), the bookkeeping table `schema_migrations`
// among them. Stores made before migration 0021 have everything in `public`: there the pending
// migrations up to 0021 run with search_path = public, and 0021 moves every object into the
// schema; from then on the session's search_path (the schema) applies again.
import fs from 'node:fs';
import path from 'node:path';
import { CODE_DIR } from '../code-location.js';
import { LOCKS, SCHEMA, type Db, type Queryable, type Transaction } from './db.js';
import { oneRow } from './rows.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Beside this file, from source (tests, tsx) and in the build alike: `npm run build` copies the
 * .sql files into dist/db/migrations (scripts/copy-migrations.mjs).
 */
const MIGRATIONS_DIR = path.join(CODE_DIR, 'db', 'migrations');

export function loadMigrations(): Migration[] {
  if (!fs.existsSync(MIGRATIONS_DIR)) throw new Error(`migrations directory not found: ${MIGRATIONS_DIR}`);
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: fs.readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8') }));
}

/** The newest migration this code knows; /readyz fails while the schema is older. */
export function latestVersion(): number {
  const all = loadMigrations();
  return all.at(-1)?.version ?? 0;
}

/** The schema that holds the bookkeeping table: ours, `public` (a store from before 0021), or none. */
async function bookkeepingSchema(q: Queryable): Promise<typeof SCHEMA | 'public' | null> {
  const row = oneRow(await q.query<{ ours: boolean; old: boolean }>(
    `select to_regclass('${SCHEMA}.schema_migrations') is not null as ours, to_regclass('public.schema_migrations') is not null as old`,
  ), 'to_regclass');
  return row.ours ? SCHEMA : row.old ? 'public' : null;
}

export async function appliedVersion(db: Queryable): Promise<number> {
  const schema = await bookkeepingSchema(db);
  if (!schema) return 0;
  const v = await db.query<{ v: number | null }>(`select max(version) as v from ${schema}.schema_migrations`);
  return v[0]?.v ?? 0;
}

/** Applies pending migrations; returns the versions applied. */
export function migrate(db: Db): Promise<number[]> {
  return db.withLock(LOCKS.migrate, applyMigrations);
}

/**
 * The pending migrations, inside a transaction the caller holds (under LOCKS.migrate): migrate's
 * body, and the first step of `export`, which makes the schema and copies the rows in one
 * transaction.
 */
export async function applyMigrations(tx: Transaction): Promise<number[]> {
  const migrations = loadMigrations();
  let schema = await bookkeepingSchema(tx);
  if (!schema) {
    await tx.exec(
      `create schema if not exists ${SCHEMA};
       create table ${SCHEMA}.schema_migrations (
         version integer primary key, name text not null, applied_at timestamptz not null default now())`,
    );
    schema = SCHEMA;
  }
  const done = new Set((await tx.query<{ version: number }>(`select version from ${schema}.schema_migrations`)).map((r) => r.version));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    if (schema === 'public') {
      // A store from before the move: its migrations run where its tables are, until 0021 moves them.
      await usePath(tx, 'public');
      await tx.exec(m.sql);
      if ((await bookkeepingSchema(tx)) === SCHEMA) {
        schema = SCHEMA;
        await usePath(tx, SCHEMA);
      }
    } else {
      await tx.exec(m.sql);
    }
    await tx.query(`insert into ${schema}.schema_migrations (version, name) values ($1, $2)`, [m.version, m.name]);
    applied.push(m.version);
  }
  return applied;
}

/** search_path for the rest of this transaction only (the session's own comes back at commit). */
async function usePath(tx: Transaction, schema: string): Promise<void> {
  await tx.exec(`set local search_path = ${schema}`);
}
