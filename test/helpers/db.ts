// A fresh, migrated database for one test file: PGlite loaded from the template dump, or a
// PostgreSQL database created from the template database.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { SCHEMA, type Db } from '../../src/db/db.js';
import { openPglite } from '../../src/db/pglite.js';
import { PostgresDb } from '../../src/db/postgres.js';

export const onPostgres = (): boolean => Boolean(inject('pgTemplate'));

function dbUrl(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = '/' + name;
  return u.toString();
}

export interface TestDb {
  db: Db;
  /** PostgreSQL connection string of this file's database (null on PGlite). */
  url: string | null;
  close(): Promise<void>;
}

export async function freshDb(): Promise<TestDb> {
  const tpl = inject('pgTemplate');
  if (tpl) {
    const adminUrl = inject('pgAdminUrl');
    const name = `sb_t_${tpl.slice('sb_tpl_'.length)}_${randomBytes(6).toString('hex')}`; // carries the run's pid
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${tpl}"`);
        break;
      } catch (err) {
        // Two files copying the template at the same moment: wait and retry.
        if (attempt > 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
    // Clients a test opens itself (pg.Client on `url`) find the tables as the server's sessions
    // do (search_path = the schema); a database's settings are not copied from its template.
    await admin.query(`alter database "${name}" set search_path = ${SCHEMA}`);
    const url = dbUrl(adminUrl, name);
    const db = new PostgresDb(url, 10);
    return {
      db,
      url,
      close: async () => {
        await db.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const file = inject('pgliteTemplate');
  const blob = new Blob([fs.readFileSync(file)]);
  const db = await openPglite({ dataDir: null, loadDataDir: blob });
  return { db, url: null, close: () => db.close() };
}

/** A store with no schema at all (migration tests): an empty PostgreSQL database, or a new PGlite. */
export async function emptyDb(): Promise<TestDb> {
  const tpl = inject('pgTemplate');
  if (tpl) {
    const adminUrl = inject('pgAdminUrl');
    const name = `sb_t_${tpl.slice('sb_tpl_'.length)}_${randomBytes(6).toString('hex')}`; // carries the run's pid
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    await admin.query(`alter database "${name}" set search_path = ${SCHEMA}`);
    const url = dbUrl(adminUrl, name);
    const db = new PostgresDb(url, 4);
    return {
      db,
      url,
      close: async () => {
        await db.close();
        await admin.query(`drop database if exists "${name}" with (force)`);
        await admin.end();
      },
    };
  }
  const db = await openPglite({ dataDir: null });
  return { db, url: null, close: () => db.close() };
}
