// Planner statistics on PGlite, which has no autoanalyze: the store is analyzed when asked, so list
// plans see real row counts. The plan a big table gets is the point: without statistics PGlite's
// planner guesses, and lists slow down with size. (PostgreSQL: statistics.postgres.test.ts.)
import { describe, expect, it } from 'vitest';
import { refreshStatistics, StatisticsKeeper } from '../../src/db/statistics.js';
import { STATS_ACCOUNT, analyzedRows, storeWithContacts } from './statistics-support.js';

const store = storeWithContacts();

describe('planner statistics (PGlite)', () => {
  it('refreshStatistics analyzes the tables (they would never be otherwise)', async () => {
    const t = store.get();
    expect(t.db.capabilities.autoAnalyze).toBe(false);
    expect(await analyzedRows(t)).toBe(0);
    expect(await refreshStatistics(t.db)).toBe(true);
    expect(await analyzedRows(t)).toBeGreaterThan(0);
    const [{ reltuples }] = await t.db.query<{ reltuples: number }>(`select reltuples from pg_class where relname = 'contacts'`);
    expect(reltuples).toBe(3000);
  });

  it('the keeper analyzes at start on a store that needs it, then stops cleanly', async () => {
    const t = store.get();
    const errors: unknown[] = [];
    const keeper = new StatisticsKeeper(t.db, (err) => errors.push(err), 60_000);
    await keeper.start();
    keeper.stop();
    expect(errors).toEqual([]);
    expect(await analyzedRows(t)).toBeGreaterThan(0);
  });

  it('a store analyzed before is not analyzed again on the start-up path, only later', async () => {
    const t = store.get();
    await refreshStatistics(t.db);
    const tuples = async () => (await t.db.query<{ n: number }>(`select reltuples::int as n from pg_class where relname = 'contacts'`))[0].n;
    const before = await tuples();
    await t.db.query(
      `insert into contacts (account_id, id, email, email_normalized)
       select $1, ('0190a000-0000-7000-9000-' || lpad(g::text, 12, '0'))::uuid, 'd' || g || '@x.example', 'd' || g || '@x.example'
         from generate_series(1, 500) g`,
      [STATS_ACCOUNT],
    );
    const keeper = new StatisticsKeeper(t.db, (err) => {
      throw err;
    });
    await keeper.start();
    keeper.stop();
    // Statistics as they were: the full ANALYZE (a second on a large store) was left for later.
    expect(await tuples()).toBe(before);
    await refreshStatistics(t.db);
    expect(await tuples()).toBe(before + 500);
  });
});
