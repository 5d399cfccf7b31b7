// Numbered SQL migrations (migrations/NNNN_name.sql), applied in order in one transaction under
// a store-wide lock, so two processes starting together cannot both apply them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCKS, type Db, type Queryable } from './db.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

function migrationsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // Running from source (tests, tsx) the .sql files sit beside this file; the compiled build
  // (dist/db) reads them from the source tree, which ships with the package.
  for (const dir of [path.join(here, 'migrations'), path.resolve(here, '../../src/db/migrations')]) {
    if (fs.existsSync(dir)) return dir;
  }
  throw new Error('migrations directory not found');
}

export function loadMigrations(): Migration[] {
  const dir = migrationsDir();
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** The newest migration this code knows; /readyz fails while the schema is older. */
export function latestVersion(): number {
  const all = loadMigrations();
  return all.length ? all[all.length - 1].version : 0;
}

async function ensureTable(q: Queryable): Promise<void> {
  await q.query(
    `create table if not exists schema_migrations (
       version integer primary key, name text not null, applied_at timestamptz not null default now())`,
  );
}

export async function appliedVersion(db: Queryable): Promise<number> {
  const rows = await db.query<{ exists: boolean }>(`select to_regclass('schema_migrations') is not null as exists`);
  if (!rows[0]?.exists) return 0;
  const v = await db.query<{ v: number | null }>('select max(version) as v from schema_migrations');
  return v[0]?.v ?? 0;
}

/** Applies pending migrations; returns the versions applied. */
export async function migrate(db: Db): Promise<number[]> {
  const migrations = loadMigrations();
  return db.withLock(LOCKS.migrate, async (tx) => {
    await ensureTable(tx);
    const done = new Set((await tx.query<{ version: number }>('select version from schema_migrations')).map((r) => r.version));
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      // Statements run one by one so both stores take the same script through the same path.
      for (const stmt of splitSql(m.sql)) await tx.query(stmt);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/**
 * Splits a migration script into statements on semicolons that end a line, except inside a
 * dollar-quoted body ($$ … $$, as in a function), and drops comment-only lines.
 */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (!inDollar && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g) ?? []).length % 2 === 1) inDollar = !inDollar;
    if (!inDollar && /;\s*$/.test(line)) {
      out.push(current.join('\n').trim().replace(/;\s*$/, ''));
      current = [];
    }
  }
  const rest = current.join('\n').trim();
  if (rest) out.push(rest);
  return out.filter((s) => s.length > 0);
}
