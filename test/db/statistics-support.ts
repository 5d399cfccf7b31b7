// The store both statistics test files start from: one account with 3,000 contacts, never analyzed.
import { afterAll, beforeAll } from 'vitest';
import { freshDb, type TestDb } from '../helpers/db.js';

export const STATS_ACCOUNT = '0190a000-0000-7000-8000-000000000001';

/** A fresh store with the contacts, made before the file's tests; `get()` inside them. */
export function storeWithContacts(): { get(): TestDb } {
  let t: TestDb | null = null;
  beforeAll(async () => {
    t = await freshDb();
    await t.db.query(`insert into accounts (id, name) values ($1, 'Stats')`, [STATS_ACCOUNT]);
    await t.db.query(
      `insert into contacts (account_id, id, email, email_normalized)
       select $1, ('0190a000-0000-7000-8000-' || lpad(g::text, 12, '0'))::uuid, 'c' || g || '@x.example', 'c' || g || '@x.example'
         from generate_series(1, 3000) g`,
      [STATS_ACCOUNT],
    );
  });
  afterAll(() => t?.close());
  return {
    get() {
      if (!t) throw new Error('the store is made in beforeAll');
      return t;
    },
  };
}

export async function analyzedRows(t: TestDb): Promise<number> {
  return (await t.db.query<{ n: number }>(`select count(*)::int as n from pg_stats where tablename = 'contacts'`))[0].n;
}
