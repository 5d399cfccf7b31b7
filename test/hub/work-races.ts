// Requests made to wait behind a lock another connection holds, then let go together: what the
// PostgreSQL race tests of work management share. It waits for the requests to be seen waiting on
// a lock (pg_stat_activity), never for a fixed time.
import type { LightMyRequestResponse } from 'fastify';
import { until } from '../http/rate-limit-store-down-support.js';
import type { TestApp } from '../helpers/app.js';

/**
 * Holds `lockSql` in a transaction of its own, sends the requests, waits until `waiters` sessions
 * wait on a lock, releases it, and answers the requests' responses.
 */
export async function heldBehind(
  t: TestApp,
  lockSql: string,
  params: unknown[],
  waiters: number,
  send: () => Array<Promise<LightMyRequestResponse>>,
): Promise<LightMyRequestResponse[]> {
  let release!: () => void;
  let holding!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const held = new Promise<void>((r) => (holding = r));
  const holder = t.db.transaction(async (tx) => {
    await tx.query(lockSql, params);
    holding();
    await gate;
  });
  await held;
  const pending = Promise.all(send());
  try {
    const waiting = async () =>
      (await t.db.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'"))[0].n;
    await until('requests waiting on the lock', waiting, (n) => n >= waiters);
  } finally {
    release();
    await holder;
  }
  return pending;
}
