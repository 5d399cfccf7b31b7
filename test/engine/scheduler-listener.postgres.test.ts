// The engine's wake-up on PostgreSQL, where NOTIFY reaches it over a dedicated LISTEN connection
// (PGlite notifies in-process, so there is no connection to lose): when that connection is killed,
// the listener reconnects by itself and a queued run is woken again, long before the next poll.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { insertWorkflow, queueRun, seedAccounts, testEngine, until, waitForRun } from './support.js';

let t: TestDb;
let acme: string;
const engines: Engine[] = [];
beforeAll(async () => {
  t = await freshDb();
  ({ acme } = await seedAccounts(t.db));
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
});
afterAll(() => t?.close());

function engine(cfg: Parameters<typeof testEngine>[1] = {}): Engine {
  const e = testEngine(t.db, cfg);
  engines.push(e);
  return e;
}

describe('wake-up after the listening connection drops', () => {
  it('the listener reconnects on its own and wakes the engine again', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const e = engine({ pollMs: 60_000 });
    await e.start();
    const killed = await t.db.query<{ ok: boolean }>(
      `select pg_terminate_backend(pid) as ok from pg_stat_activity
        where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
    );
    expect(killed.length).toBeGreaterThan(0);
    await until('the listener to be back', async () => {
      const rows = await t.db.query(`select 1 from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
      return rows.length > 0;
    });
    const queuedAt = Date.now();
    const id = await queueRun(t.db, acme, wf);
    await waitForRun(t.db, id, (s) => s !== 'queued', 20_000);
    expect(Date.now() - queuedAt).toBeLessThan(20_000);
  });
});
