// Planner statistics on PostgreSQL: autovacuum keeps them, so the keeper and refreshStatistics do
// nothing. (PGlite, which must be analyzed when asked: statistics.pglite.test.ts.)
import { describe, expect, it } from 'vitest';
import { refreshStatistics, StatisticsKeeper } from '../../src/db/statistics.js';
import { storeWithContacts } from './statistics-support.js';

const store = storeWithContacts();

describe('planner statistics (PostgreSQL)', () => {
  it('autovacuum keeps them; the keeper starts and stops cleanly and refresh does nothing', async () => {
    const t = store.get();
    expect(t.db.capabilities.autoAnalyze).toBe(true);
    expect(await refreshStatistics(t.db)).toBe(false);
    const errors: unknown[] = [];
    const keeper = new StatisticsKeeper(t.db, (err) => errors.push(err), 60_000);
    await keeper.start();
    keeper.stop();
    expect(errors).toEqual([]);
  });
});
