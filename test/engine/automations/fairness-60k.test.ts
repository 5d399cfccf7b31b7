// Fairness at the size the issue names (docs/architecture.md §9.2): one account's 60,000 queued
// automation runs do not hold back another account's run. The backlog is older than the other
// account's run (a plain first-in-first-out queue would start it last); one engine with its default
// concurrency must start the other run's step within 5 s while most of the backlog is still
// pending.
//
// Measured with the database's own clock (the step's started_at against the backlog's finished_at),
// not with timers: on PGlite the engine's in-process queries keep Node's event loop busy for as
// long as the backlog lasts (about 4–5 ms a run: 2,000 runs held timers back for ~9 s here), so a
// timer-based poll cannot look while it works. For the same reason PGlite gets a smaller backlog
// (60,000 runs would block the test worker for minutes, past the file's time budget); PostgreSQL,
// where queries are real I/O, gets the full 60,000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine.js';
import { freshDb, onPostgres, type TestDb } from '../../helpers/db.js';
import { enroll, insertAutomation, seedWorld, startEngine, stepRows, until, type World } from './support.js';

const BACKLOG = onPostgres() ? 60_000 : 3_000;
const START_WITHIN_MS = 5_000;

let t: TestDb;
let w: World;
const engines: Engine[] = [];
beforeAll(async () => {
  t = await freshDb();
  w = await seedWorld(t.db);
});
afterAll(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
  await t?.close();
});

describe(`fairness with ${BACKLOG.toLocaleString('en')} queued runs`, () => {
  it('another account’s run starts within 5 s while one account’s backlog is mostly still pending', async () => {
    // A cheap single step: the backlog is about queueing, not about the work.
    const big = await insertAutomation(t.db, w.acme, w.site, [{ id: 'x', type: 'end' }]);
    const t0 = Date.now();
    await t.db.query(
      `insert into automation_runs (account_id, id, automation_id, status, started_by, version, run_at)
       select $1, gen_random_uuid(), $2, 'running', 'bulk', 1, now() - interval '1 hour' from generate_series(1, ${BACKLOG}) g`,
      [w.acme, big],
    );
    const insertMs = Date.now() - t0;
    const small = await insertAutomation(t.db, w.globex, w.globexSite, [{ id: 't', type: 'tag.add', config: { tag: 'x' } }]);
    const theirs = await enroll(t.db, w.globex, small, null);
    const counts = await t.db.query<{ n: string }>(`select count(*) as n from automation_runs where account_id = $1 and status = 'running'`, [w.acme]);
    expect(Number(counts[0].n)).toBe(BACKLOG);

    const [{ at: engineStart }] = await t.db.query<{ at: Date }>(`select now() as at`);
    // One engine, default concurrency (the support helper only shortens lease and poll).
    await startEngine(t.db, engines);
    await until('the other account’s run to start its step', async () => (await stepRows(t.db, theirs)).some((s) => s.step_id === 't' && s.started_at), 60_000);

    const step = (await stepRows(t.db, theirs)).find((s) => s.step_id === 't')!;
    const startedAfter = step.started_at!.getTime() - engineStart.getTime();
    const [{ n: doneBefore }] = await t.db.query<{ n: string }>(
      `select count(*) as n from automation_runs where account_id = $1 and status not in ('running', 'waiting') and finished_at <= $2`,
      [w.acme, step.started_at],
    );
    const pendingThen = BACKLOG - Number(doneBefore);
    console.log(
      `fairness (${t.url ? 'postgres' : 'pglite'}, ${BACKLOG} queued): backlog inserted in ${insertMs} ms; ` +
        `the other account's step started ${startedAfter} ms after the engine; ${pendingThen} of ${BACKLOG} backlog runs still pending then`,
    );
    expect(startedAfter).toBeLessThanOrEqual(START_WITHIN_MS);
    expect(pendingThen).toBeGreaterThan(BACKLOG / 2);
  }, 120_000);
});
