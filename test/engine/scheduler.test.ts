// The queue (docs/architecture.md §9): SKIP LOCKED claims by several engines, fairness across
// accounts, the NOTIFY wake-up, fencing after a lost lease, resuming a run whose worker died, and
// shutdown.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { claimRuns } from '../../src/queue/workflow-run-store.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import {
  chain,
  executions,
  gates,
  insertWorkflow,
  queueRun,
  runRow,
  seedAccounts,
  sleep,
  steps,
  testEngine,
  until,
  waitForRun,
} from './support.js';

let t: TestDb;
let acme: string;
let globex: string;
const engines: Engine[] = [];
beforeAll(async () => {
  t = await freshDb();
  ({ acme, globex } = await seedAccounts(t.db));
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
  // Whatever a test left in the queue must not leak into the next one.
  await t.db.query(`update workflow_runs set status = 'cancelled', summary = 'Cancelled', finished_at = now()
                     where status in ('queued', 'running', 'awaiting_approval')`);
});
afterAll(() => t?.close());

function engine(cfg: Parameters<typeof testEngine>[1] = {}, opts: Parameters<typeof testEngine>[2] = {}): Engine {
  const e = testEngine(t.db, cfg, opts);
  engines.push(e);
  return e;
}

describe('claims', () => {
  it('two engines on one database never run a run twice', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo', config: { text: 'x' } }, { id: 'b', kind: 'test.echo' }], [{ from: 'a', to: 'b' }]);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await queueRun(t.db, i % 2 ? acme : globex, i % 2 ? wf : await insertWorkflow(t.db, globex, [{ id: 'a', kind: 'test.echo' }])));
    const one = engine({ concurrency: 4, pollMs: 20 });
    const two = engine({ concurrency: 4, pollMs: 20 });
    await Promise.all([one.start(), two.start()]);
    for (const id of ids) await waitForRun(t.db, id, 'succeeded', 30_000);
    const ran = await executions(t.db);
    const perBlock = new Map<string, number>();
    for (const e of ran.filter((r) => ids.includes(r.run_id))) perBlock.set(`${e.run_id}:${e.block_id}`, (perBlock.get(`${e.run_id}:${e.block_id}`) ?? 0) + 1);
    expect([...perBlock.values()].every((n) => n === 1)).toBe(true);
    expect(perBlock.size).toBe(20 * 2 + 20);
    expect(one.stats.claimed + two.stats.claimed).toBe(40);
    for (const id of ids) expect((await runRow(t.db, id)).attempt).toBe(1);
  });

  it('is fair across accounts: one account with 200 queued runs does not hold back another', async () => {
    const big = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    await t.db.query(
      `insert into workflow_runs (account_id, id, workflow_id, status, trigger, summary, run_at)
       select $1, gen_random_uuid(), $2, 'queued', 'manual', 'Queued', now() - interval '1 hour' + g * interval '1 second'
         from generate_series(1, 200) g`,
      [acme, big],
    );
    // Queued last: the newest run in the table.
    const small = await queueRun(t.db, globex, await insertWorkflow(t.db, globex, [{ id: 'a', kind: 'test.echo' }]));
    const first = await claimRuns(t.db, 'test-owner', 10_000, 2);
    expect(first.map((r) => r.account_id).sort()).toEqual([acme, globex].sort());
    expect(first.map((r) => r.id)).toContain(small);
    // Once the small account has nothing ready, the big one gets every slot, oldest first.
    const next = await claimRuns(t.db, 'test-owner', 10_000, 5);
    expect(next).toHaveLength(5);
    expect(next.every((r) => r.account_id === acme && r.attempt === 1 && r.previous_status === 'queued')).toBe(true);
  });

  it('does not claim a run whose start time has not come, or one held under a live lease', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const later = await queueRun(t.db, acme, wf);
    await t.db.query(`update workflow_runs set run_at = now() + interval '1 hour' where id = $1`, [later]);
    const held = await queueRun(t.db, acme, wf);
    expect((await claimRuns(t.db, 'w1', 60_000, 10)).map((r) => r.id)).toEqual([held]);
    expect(await claimRuns(t.db, 'w2', 60_000, 10)).toEqual([]);
    // Its lease runs out (the worker died): the same claim is the reaper.
    await t.db.query(`update workflow_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [held]);
    const again = await claimRuns(t.db, 'w2', 60_000, 10);
    expect(again).toMatchObject([{ id: held, attempt: 2, previous_status: 'running' }]);
  });
});

describe('wake-up', () => {
  // Bounds a third of the poll interval, not speed targets: only a wake-up (NOTIFY) can beat them,
  // on a loaded machine too.
  it('a run queued while the engine idles starts long before the next poll at 60 s (NOTIFY)', async () => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const e = engine({ pollMs: 60_000 });
    await e.start();
    await sleep(200); // let the first claim pass find nothing and go idle
    const queuedAt = Date.now();
    const id = await queueRun(t.db, acme, wf);
    await waitForRun(t.db, id, (s) => s !== 'queued', 20_000);
    const latency = Date.now() - queuedAt;
    expect(latency).toBeLessThan(20_000);
    await waitForRun(t.db, id, 'succeeded');
  });
});

describe('leases and fencing', () => {
  it('a worker that lost its lease writes nothing more; another worker completes the run', async () => {
    const { blocks, edges } = chain([
      { id: 'a', kind: 'test.echo', config: { text: 'first' } },
      // Held by the test and deaf to its signal: the first worker makes its next write (fenced)
      // only after the second one has taken the run over, every time.
      { id: 'slow', kind: 'test.gate', config: { gate: 'takeover' } },
      { id: 'c', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    // A long lease: its heartbeat does not notice the takeover before its block returns. One slot,
    // taken by the stalled run: it cannot take the run back itself (the next test does that).
    const first = engine({ leaseMs: 60_000, concurrency: 1 });
    await first.start();
    await until('the first worker to stall in the slow block', () => gates.reached('takeover@1'));
    // Its lease expires under it, and a second worker takes over.
    await t.db.query(`update workflow_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [id]);
    const second = engine({ leaseMs: 60_000 });
    await second.start();
    await until('the second worker to reach the slow block', () => gates.reached('takeover@2'));
    expect(await runRow(t.db, id)).toMatchObject({ status: 'running', attempt: 2, lease_owner: second.owner });

    // The first worker wakes up and tries to record its block's end: refused, and it lets go.
    gates.open('takeover@1');
    await until('the first worker to be done with its attempt', () => first.busy === 0);
    expect(first.stats).toMatchObject({ claimed: 1, settled: 0, lost: 1 });
    expect(await runRow(t.db, id)).toMatchObject({ status: 'running', attempt: 2, lease_owner: second.owner });
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status])).toEqual([
      ['a', 'succeeded'],
      ['slow', 'running'],
    ]);

    gates.open('takeover@2');
    const run = await waitForRun(t.db, id, 'succeeded');
    expect(run.attempt).toBe(2);
    expect(second.stats).toMatchObject({ claimed: 1, settled: 1, lost: 0 });
    expect(first.stats).toMatchObject({ claimed: 1, settled: 0, lost: 1 });
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.seq, x.node_id, x.status])).toEqual([
      [1, 'a', 'succeeded'],
      [2, 'slow', 'succeeded'],
      [3, 'c', 'succeeded'],
    ]);
    // Every output after the takeover is the second attempt's; `a` (done before it) was not re-run.
    expect(s.map((x) => x.output!.attempt)).toEqual([1, 2, 2]);
    expect((await executions(t.db, id)).map((e) => `${e.block_id}@${e.attempt}`)).toEqual(['a@1', 'slow@1', 'slow@2', 'c@2']);
    const after = await runRow(t.db, id);
    expect(after).toMatchObject({ status: 'succeeded', lease_owner: null });
  });

  it('a worker that takes its own lapsed run back works only the new attempt, and stop() waits for it and releases it', async () => {
    const { blocks, edges } = chain([
      { id: 'a', kind: 'test.echo' },
      { id: 'slow', kind: 'test.gate', config: { gate: 'own' } },
      { id: 'c', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    // Free slots and a short poll: nothing stops it from claiming the run again once the lease lapses.
    const first = engine({ leaseMs: 60_000, pollMs: 20 });
    await first.start();
    await until('the worker to stall in the slow block', () => gates.reached('own@1'));
    // The lease lapses under it (its event loop stalled longer than the lease): its own next poll takes the run back.
    await t.db.query(`update workflow_runs set lease_expires_at = now() - interval '1 second' where id = $1`, [id]);
    await until('the worker to take the run back', () => gates.reached('own@2'));
    expect(first.stats.claimed).toBe(2);
    // The older attempt stops at that claim, not at its next write; its late answer is dropped.
    await until('the older attempt to let go', () => first.stats.lost === 1);
    gates.open('own@1');
    // Both attempts were tracked apart: the older one's end did not take the newer one's slot with it.
    expect(first.busy).toBe(1);

    // stop() with the newer attempt still in its block: it is released for another worker at once,
    // and this worker writes nothing more to it.
    await first.stop();
    expect(first.stats).toMatchObject({ claimed: 2, settled: 0, lost: 2 });
    const [held] = await t.db.query<{ status: string; attempt: number; released: boolean }>(
      `select status, attempt, lease_expires_at <= now() as released from workflow_runs where id = $1`,
      [id],
    );
    expect(held).toEqual({ status: 'running', attempt: 2, released: true });
    gates.open('own@2');
    const second = engine();
    await second.start();
    await until('the next worker to reach the slow block', () => gates.reached('own@3'));
    gates.open('own@3');
    const run = await waitForRun(t.db, id, 'succeeded');
    expect(run.attempt).toBe(3);
    expect(first.stats.settled).toBe(0);
    expect(second.stats).toMatchObject({ claimed: 1, settled: 1 });
    expect((await executions(t.db, id)).map((e) => `${e.block_id}@${e.attempt}`)).toEqual(['a@1', 'slow@1', 'slow@2', 'slow@3', 'c@3']);
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status, x.output!.attempt])).toEqual([
      ['a', 'succeeded', 1],
      ['slow', 'succeeded', 3],
      ['c', 'succeeded', 3],
    ]);
  });

  it('the heartbeat keeps a run longer than its lease with its worker, while another worker waits', async () => {
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'long', kind: 'test.sleep', config: { ms: 1_200 } }]));
    const first = engine({ leaseMs: 600, pollMs: 20 });
    await first.start();
    await waitForRun(t.db, id, 'running');
    const second = engine({ leaseMs: 600, pollMs: 20 });
    await second.start();
    const run = await waitForRun(t.db, id, 'succeeded');
    expect(run.attempt).toBe(1);
    expect(second.stats.claimed).toBe(0);
    expect(await executions(t.db, id)).toHaveLength(1);
  });

  it('resumes a run left running by a dead worker: succeeded steps are kept, the running one re-runs with the same effectKey', async () => {
    const { blocks, edges } = chain([
      { id: 'a', kind: 'test.echo', config: { text: 'done before the crash' } },
      { id: 'fx', kind: 'test.effect' },
      { id: 'c', kind: 'test.echo' },
    ]);
    const wf = await insertWorkflow(t.db, acme, blocks, edges);
    const id = await queueRun(t.db, acme, wf);
    // The state a worker killed inside `fx` leaves: `a` succeeded, `fx` running and its side effect
    // already done (keyed on the effectKey), the lease expired.
    await t.db.transaction(async (tx) => {
      await tx.query(
        `update workflow_runs set status = 'running', started_at = now(), attempt = 1, summary = 'Running: 1 of 3 blocks',
                lease_owner = 'dead-host:1:x', lease_expires_at = now() - interval '1 second' where id = $1`,
        [id],
      );
      await tx.query(
        `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, finished_at, ms, output, effect_key)
         values ($1, $2, 1, 'a', 'test.echo', 'succeeded', now(), now(), 3, '{"text": "stored output of a"}', $3),
                ($1, $2, 2, 'fx', 'test.effect', 'running', now(), null, 0, null, $4)`,
        [acme, id, `${id}:a`, `${id}:fx`],
      );
      await tx.query(`insert into test_effects (effect_key) values ($1)`, [`${id}:fx`]);
    });
    await engine().start();
    const run = await waitForRun(t.db, id, 'succeeded');
    expect(run.attempt).toBe(2);
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.seq, x.node_id, x.status])).toEqual([
      [1, 'a', 'succeeded'],
      [2, 'fx', 'succeeded'],
      [3, 'c', 'succeeded'],
    ]);
    expect(s[2].output!.text).toBe('fx=effect done');
    expect((await executions(t.db, id)).map((e) => e.block_id)).toEqual(['fx', 'c']);
    const fx = await t.db.query<{ n: number }>(`select count(*)::int as n from test_effects where effect_key = $1`, [`${id}:fx`]);
    expect(fx[0].n).toBe(1);
  });

  it('stop() lets a short block finish, and releases a long one for another worker at once', async () => {
    const quick = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'q', kind: 'test.sleep', config: { ms: 50 } }]));
    const { blocks, edges } = chain([
      { id: 'long', kind: 'test.sleep', config: { ms: 1_500 } },
      { id: 'then', kind: 'test.echo' },
    ]);
    const long = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    const first = engine({ concurrency: 2, leaseMs: 60_000 }, { stopGraceMs: 300 });
    await first.start();
    await until('both runs to start', async () => (await executions(t.db)).filter((e) => [quick, long].includes(e.run_id)).length === 2);
    await first.stop();
    expect((await runRow(t.db, quick)).status).toBe('succeeded');
    const released = await runRow(t.db, long);
    expect(released.status).toBe('running');
    expect(released.lease_expires_at!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    // A long lease was given up: a new worker takes the run at once rather than in 60 s.
    await engine().start();
    const run = await waitForRun(t.db, long, 'succeeded', 10_000);
    expect(run.attempt).toBe(2);
    expect((await steps(t.db, long)).map((x) => [x.node_id, x.status])).toEqual([
      ['long', 'succeeded'],
      ['then', 'succeeded'],
    ]);
  });
});
