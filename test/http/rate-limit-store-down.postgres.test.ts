// The PostgreSQL rate counter that does not answer in time (its table locked from another
// connection): requests fall back to the process's own count, the waiting statements are cancelled
// by the server so no connection is held for long, and counts are shared again afterwards.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { awaitFreshWindow } from '../helpers/process.js';
import { LIMIT, expectLimitedOnItsOwn, expectOneWarning, list, readyz, storeDownHarness, until } from './rate-limit-store-down-support.js';

const { freshKey, appOn, db, lastRef } = storeDownHarness();

describe('a PostgreSQL counter that does not answer in time', () => {
  it('falls back while the counter table is locked, never holds a connection for long, and recovers', async () => {
    const key = await freshKey();
    const logged = await appOn('postgres', null, 1_000);
    await awaitFreshWindow(20_000);
    const first = await list(logged.app, key);
    expect(first.statusCode).toBe(200);
    await until('healthy', () => readyz(logged.app), (r) => r.body.rate_limits === 'ok');

    const locker = new pg.Client({ connectionString: db().url! });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table rate_counters in exclusive mode');
      await expectLimitedOnItsOwn(logged.app, key, 1);
      expect(await readyz(logged.app)).toMatchObject({ status: 200, body: { status: 'ready', rate_limits: 'degraded' } });
      expectOneWarning(logged, 'postgres', /no answer within 1000 ms/);
      // The statements waiting on the lock are cancelled by the server (statement_timeout), so
      // they give their connections back while the lock is still held.
      const waiting = () =>
        locker.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      await until('the waiting statements to be cancelled', waiting, (r) => r.rows[0].n === 0);
    } finally {
      await locker.query('commit').catch(() => {});
      await locker.end();
    }
    await until('recovery', () => readyz(logged.app), (r) => r.status === 200 && r.body.rate_limits === 'ok');
    // Shared again: each request is one more on the counter row.
    const other = await freshKey();
    await awaitFreshWindow(20_000);
    for (let i = 0; i < 3; i++) expect((await list(logged.app, other)).headers['ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
    const [row] = await db().db.query<{ count: number }>(
      `select c.count from rate_counters c join api_keys k on c.key = 'k:' || k.id join accounts a on a.id = k.account_id
        where a.name = $1`,
      [`Account ${lastRef()}`],
    );
    expect(row.count).toBe(3);
  });
});
