// Planner statistics: a store without autoanalyze (PGlite) is analyzed when asked, so list plans
// see real row counts; on PostgreSQL (autovacuum) the keeper does nothing. The plan a big table
// gets is the point: without statistics PGlite's planner guesses, and lists slow down with size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshStatistics, StatisticsKeeper } from '../../src/db/statistics.js';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
  const [{ id }] = await t.db.query<{ id: string }>(
    `insert into accounts (id, name) values ('0190a000-0000-7000-8000-000000000001', 'Stats') returning id`,
  );
  await t.db.query(
    `insert into contacts (account_id, id, email, email_normalized)
     select $1, ('0190a000-0000-7000-8000-' || lpad(g::text, 12, '0'))::uuid, 'c' || g || '@x.example', 'c' || g || '@x.example'
       from generate_series(1, 3000) g`,
    [id],
  );
});
afterAll(() => t?.close());

const analyzedRows = async () =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from pg_stats where tablename = 'contacts'`))[0].n;

describe('planner statistics', () => {
  it.runIf(!onPostgres())('PGlite: refreshStatistics analyzes the tables (they would never be otherwise)', async () => {
    expect(t.db.capabilities.autoAnalyze).toBe(false);
    expect(await analyzedRows()).toBe(0);
    expect(await refreshStatistics(t.db)).toBe(true);
    expect(await analyzedRows()).toBeGreaterThan(0);
    const [{ reltuples }] = await t.db.query<{ reltuples: number }>(`select reltuples from pg_class where relname = 'contacts'`);
    expect(reltuples).toBe(3000);
  });

  it.runIf(onPostgres())('PostgreSQL: autovacuum keeps them; the keeper and refresh do nothing', async () => {
    expect(t.db.capabilities.autoAnalyze).toBe(true);
    expect(await refreshStatistics(t.db)).toBe(false);
    const keeper = new StatisticsKeeper(t.db, (err) => {
      throw err;
    });
    await keeper.start();
    keeper.stop();
  });

  it('the keeper analyzes at start on a store that needs it, then stops cleanly', async () => {
    const errors: unknown[] = [];
    const keeper = new StatisticsKeeper(t.db, (err) => errors.push(err), 60_000);
    await keeper.start();
    keeper.stop();
    expect(errors).toEqual([]);
    if (!t.db.capabilities.autoAnalyze) expect(await analyzedRows()).toBeGreaterThan(0);
  });

  it.runIf(!onPostgres())('PGlite: a store analyzed before is not analyzed again on the start-up path, only later', async () => {
    await refreshStatistics(t.db);
    const tuples = async () => (await t.db.query<{ n: number }>(`select reltuples::int as n from pg_class where relname = 'contacts'`))[0].n;
    const before = await tuples();
    await t.db.query(
      `insert into contacts (account_id, id, email, email_normalized)
       select '0190a000-0000-7000-8000-000000000001', ('0190a000-0000-7000-9000-' || lpad(g::text, 12, '0'))::uuid, 'd' || g || '@x.example', 'd' || g || '@x.example'
         from generate_series(1, 500) g`,
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
