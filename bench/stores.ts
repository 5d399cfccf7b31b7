// What the in-process benchmarks share: run a measurement on each store (an in-memory PGlite,
// then a fresh PostgreSQL database that is dropped afterwards), only ever on this machine, and
// the entry-point frame with its hard time limit.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { PostgresDb } from '../src/db/postgres.js';

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Benchmarks talk to this machine only. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    throw new Error(`BENCH_DATABASE_URL must point at a loopback address (127.0.0.1), not ${host}`);
  }
}

/** Runs `measure` on a migrated in-memory PGlite, then on a migrated throw-away PostgreSQL database. */
export async function onEachStore<T>(tag: string, measure: (db: Db, store: 'pglite' | 'postgres') => Promise<T>): Promise<T[]> {
  assertLoopback(ADMIN_URL);
  const out: T[] = [];
  const lite = await openPglite({ dataDir: null });
  try {
    await migrate(lite);
    out.push(await measure(lite, 'pglite'));
  } finally {
    await lite.close();
  }
  out.push(await withPostgresDatabase(tag, async (db) => measure(db, 'postgres')));
  return out;
}

/** Runs `fn` on a migrated throw-away PostgreSQL database (its URL too, for child processes), then drops it. */
export async function withPostgresDatabase<T>(tag: string, fn: (db: PostgresDb, url: string) => Promise<T>): Promise<T> {
  assertLoopback(ADMIN_URL);
  const name = `sb_bench_${tag}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const db = new PostgresDb(u.toString(), 4);
  try {
    await migrate(db);
    return await fn(db, u.toString());
  } finally {
    await db.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

/** Runs `main` when `moduleUrl` is the entry point, and gives up (exit 1) after `limitMs`. */
export function benchEntry(moduleUrl: string, name: string, limitMs: number, main: () => Promise<void>): void {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  setTimeout(() => {
    console.error(`${name}: giving up after ${Math.round(limitMs / 60_000)} minutes`);
    process.exit(1);
  }, limitMs).unref();
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
