// The automation queue: fair claims across accounts (one account's thousands of queued runs do not
// hold back another's first run), NOTIFY starting a new run's steps within a second while the
// poll is a minute, and two engines never running one run twice.
import { inlinePageRenderer } from '../../../src/lib/page-renderer.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { createBilling } from '../../../src/engine/billing/index.js';
import type { Providers } from '../../../src/engine/types.js';
import { claimAutomationRuns } from '../../../src/queue/automation-run-store.js';
import { freshDb, type TestDb } from '../../helpers/db.js';
import { enroll, insertAutomation, insertContact, outbox, runRow, seedWorld, sleep, startEngine, stepRows, testConfig, until, waitForRun, type World } from './support.js';

let t: TestDb;
let w: World;
const engines: Engine[] = [];
beforeAll(async () => {
  t = await freshDb();
  w = await seedWorld(t.db);
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
  await t.db.query(`update automation_runs set status = 'stopped', finished_at = now() where status in ('running', 'waiting')`);
});
afterAll(() => t?.close());

describe('claims', () => {
  it('is fair across accounts: 2,000 queued runs of one account do not hold back another account’s one', async () => {
    const big = await insertAutomation(t.db, w.acme, w.site, [{ id: 'g', type: 'tag.add', config: { tag: 'x' } }]);
    // Scheduled-style runs (no contact), all older than the other account's run.
    await t.db.query(
      `insert into automation_runs (account_id, id, automation_id, status, started_by, version, run_at)
       select $1, gen_random_uuid(), $2, 'running', 'test', 1, now() - interval '1 hour' + g * interval '1 millisecond'
         from generate_series(1, 2000) g`,
      [w.acme, big],
    );
    const small = await insertAutomation(t.db, w.globex, w.globexSite, [{ id: 'g', type: 'tag.add', config: { tag: 'x' } }]);
    const theirs = await enroll(t.db, w.globex, small, null);
    const first = await claimAutomationRuns(t.db, 'test-owner', 10_000, 4);
    expect(first).toHaveLength(4);
    expect(first.map((r) => r.id)).toContain(theirs);
    // Once the other account has nothing ready, the big one gets every slot.
    const next = await claimAutomationRuns(t.db, 'test-owner', 10_000, 8);
    expect(next).toHaveLength(8);
    expect(next.every((r) => r.account_id === w.acme && r.attempt === 1)).toBe(true);
  });

  it('an engine busy with a large backlog still starts the other account’s run among its first claims', async () => {
    // The backlog's runs call a model that takes 20 ms, as real steps take time (and so the
    // timers of this test get their turn beside PGlite's in-process queries).
    const big = await insertAutomation(t.db, w.acme, w.site, [{ id: 'ai', type: 'ai.write', config: { prompt: 'x' } }]);
    await t.db.query(
      `insert into automation_runs (account_id, id, automation_id, status, started_by, version, run_at)
       select $1, gen_random_uuid(), $2, 'running', 'test', 1, now() - interval '1 hour' + g * interval '1 millisecond'
         from generate_series(1, 2000) g`,
      [w.acme, big],
    );
    const small = await insertAutomation(t.db, w.globex, w.globexSite, [{ id: 'g', type: 'tag.add', config: { tag: 'x' } }]);
    const theirs = await enroll(t.db, w.globex, small, null);
    const slow: Providers = {
      llm: { name: 'slow', complete: async () => (await sleep(20), { text: 'x', inputTokens: 1, outputTokens: 1 }) },
      fetchText: async () => '',
      pages: inlinePageRenderer,
    };
    const e = new Engine({ db: t.db, config: testConfig({ concurrency: 4 }), blocks: new Map(), providers: slow, billing: createBilling(t.db), stopGraceMs: 2_000 });
    engines.push(e);
    await e.start();
    await until('20 claims', () => e.stats.claimed >= 20, 20_000);
    await e.stop();
    expect((await runRow(t.db, theirs)).status).toBe('succeeded');
    // Its trigger step was recorded before nearly all of the backlog's (claims are round-robin).
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from automation_run_steps s join automation_runs r on r.account_id = s.account_id and r.id = s.run_id
        where r.automation_id = $1 and s.step_id = 't'
          and s.started_at < (select started_at from automation_run_steps where run_id = $2 and step_id = 't')`,
      [big, theirs],
    );
    expect(n).toBeLessThan(8);
    const [{ left }] = await t.db.query<{ left: number }>(`select count(*)::int as left from automation_runs where automation_id = $1 and status = 'running'`, [big]);
    expect(left).toBeGreaterThan(1_900);
  });

  // The bound is a third of the poll interval, not a speed target: only a wake-up (NOTIFY) can
  // beat it, on a loaded machine too.
  it('steps of a new run begin long before the next poll at 60 s (NOTIFY wakes the engine)', async () => {
    const auto = await insertAutomation(t.db, w.acme, w.site, [{ id: 'e1', type: 'email.send', config: { subject: 's', body: 'b' } }]);
    const c = await insertContact(t.db, w.acme);
    await startEngine(t.db, engines, { pollMs: 60_000 });
    // Let the engine go idle on its first (empty) claim.
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const run = await enroll(t.db, w.acme, auto, c);
    await until('the run has steps', async () => (await stepRows(t.db, run)).length > 0, 20_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    await waitForRun(t.db, run, 'succeeded', 20_000);
  });

  it('two engines on one database run each run once', async () => {
    const auto = await insertAutomation(t.db, w.acme, w.site, [
      { id: 'e1', type: 'email.send', config: { subject: 's', body: 'b' } },
      { id: 'w1', type: 'wait', config: { duration: 'PT0.3S' } },
      { id: 'e2', type: 'email.send', config: { subject: 't', body: 'b' } },
    ]);
    const runs: string[] = [];
    for (let i = 0; i < 30; i++) runs.push(await enroll(t.db, w.acme, auto, await insertContact(t.db, w.acme)));
    await Promise.all([startEngine(t.db, engines, { concurrency: 3 }), startEngine(t.db, engines, { concurrency: 3 })]);
    for (const r of runs) await waitForRun(t.db, r, 'succeeded', 30_000);
    for (const r of runs) {
      expect((await stepRows(t.db, r)).map((s) => s.step_id)).toEqual(['t', 'e1', 'w1', 'e2']);
      expect(await outbox(t.db, r)).toHaveLength(2);
    }
  });
});
