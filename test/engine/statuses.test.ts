// Every status transition of a workflow run (spec "Workflow run status", docs/architecture.md
// §10.3): driven through the engine and the operator commands on a real database.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCommand } from '../../src/cli/operator.js';
import type { Engine } from '../../src/engine/engine.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { chain, executions, insertWorkflow, queueRun, runRow, seedAccounts, sleep, steps, testEngine, until, waitForRun } from './support.js';

let t: TestDb;
let acme: string;
const engines: Engine[] = [];
beforeAll(async () => {
  t = await freshDb();
  acme = (await seedAccounts(t.db)).acme;
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
});
afterAll(() => t?.close());

async function started(engineConfig: Parameters<typeof testEngine>[1] = {}): Promise<Engine> {
  const e = testEngine(t.db, engineConfig);
  engines.push(e);
  await e.start();
  return e;
}

const runs = (...argv: string[]) => runOperatorCommand(t.db, ['runs', ...argv]);

describe('queued → running → succeeded', () => {
  it('runs the blocks in order, feeds outputs forward and records every step', async () => {
    // a → c, b → c, declared c first: the plan still runs a and b before c.
    const wf = await insertWorkflow(
      t.db,
      acme,
      [
        { id: 'c', kind: 'test.echo' },
        { id: 'a', kind: 'test.echo', config: { text: 'hello' } },
        { id: 'b', kind: 'test.echo', config: { text: 'world' } },
      ],
      [
        { from: 'b', to: 'c' },
        { from: 'a', to: 'c' },
      ],
    );
    const id = await queueRun(t.db, acme, wf);
    expect(await runRow(t.db, id)).toMatchObject({ status: 'queued', summary: 'Queued', started_at: null, finished_at: null });
    await started();
    const run = await waitForRun(t.db, id, 'succeeded');
    expect(run.summary).toMatch(/^Succeeded in \d+\.\d s$/);
    expect(run.started_at).toBeInstanceOf(Date);
    expect(run.finished_at!.getTime()).toBeGreaterThanOrEqual(run.started_at!.getTime());
    expect(run.lease_owner).toBeNull();
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.seq, x.node_id, x.node_kind, x.status])).toEqual([
      [1, 'a', 'test.echo', 'succeeded'],
      [2, 'b', 'test.echo', 'succeeded'],
      [3, 'c', 'test.echo', 'succeeded'],
    ]);
    // Inputs in edge order: b's edge comes first.
    expect(s[2].output!.text).toBe('b=world;a=hello');
    for (const x of s) {
      expect(Number.isInteger(x.ms)).toBe(true);
      expect(x.effect_key).toBe(`${id}:${x.node_id}`);
      expect(x.started_at).toBeInstanceOf(Date);
      expect(x.finished_at).toBeInstanceOf(Date);
      expect(x.error).toBeNull();
    }
  });
});

describe('→ failed', () => {
  it('a failing block fails the run with the error in the step and the summary; later blocks never run', async () => {
    const { blocks, edges } = chain([
      { id: 'a', kind: 'test.echo', config: { text: 'x' } },
      { id: 'b', kind: 'test.fail', config: { error: 'upstream said no' } },
      { id: 'c', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    await started();
    const run = await waitForRun(t.db, id, 'failed');
    expect(run.summary).toBe('Failed: b: upstream said no');
    expect(run.finished_at).toBeInstanceOf(Date);
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.node_id, x.status, x.error])).toEqual([
      ['a', 'succeeded', null],
      ['b', 'failed', 'upstream said no'],
    ]);
    expect((await executions(t.db, id)).map((e) => e.block_id)).toEqual(['a', 'b']);
  });

  it('a block that throws, an unknown kind and an invalid config fail their step', async () => {
    const cases: [string, string, RegExp][] = [
      ['test.throw', '{}', /^Failed: x: thrown inside the block$/],
      ['no.such.kind', '{}', /^Failed: x: unknown block kind "no.such.kind"$/],
      ['test.echo', '{"invalid": true}', /^Failed: x: invalid config: config.invalid is set$/],
    ];
    await started();
    for (const [kind, config, summary] of cases) {
      const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'x', kind, config: JSON.parse(config) }]));
      const run = await waitForRun(t.db, id, 'failed');
      expect(run.summary).toMatch(summary);
      expect((await steps(t.db, id)).map((x) => [x.node_id, x.node_kind, x.status])).toEqual([['x', kind, 'failed']]);
    }
  });

  it('a workflow with no blocks, a cycle or a dangling edge ends failed with a clear reason', async () => {
    await started();
    const empty = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, []));
    expect((await waitForRun(t.db, empty, 'failed')).summary).toBe('Failed: the workflow has no blocks');
    const cyc = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }, { id: 'b', kind: 'test.echo' }], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
    ]);
    const cycle = await queueRun(t.db, acme, cyc);
    expect((await waitForRun(t.db, cycle, 'failed')).summary).toMatch(/^Failed: the edges form a cycle/);
    const dang = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }], [{ from: 'a', to: 'zz' }]));
    expect((await waitForRun(t.db, dang, 'failed')).summary).toMatch(/"zz", which does not exist/);
    expect(await steps(t.db, empty)).toEqual([]);
  });
});

describe('→ partial', () => {
  it('time limit: the running block is aborted, its step fails, the run is partial', async () => {
    const { blocks, edges } = chain([
      { id: 'slow', kind: 'test.sleep', config: { ms: 20_000 } },
      { id: 'after', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    await started({ runTimeLimitMs: 300 });
    const run = await waitForRun(t.db, id, 'partial');
    expect(run.summary).toBe('Stopped: time limit reached');
    expect(run.finished_at).toBeInstanceOf(Date);
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status, x.error])).toEqual([['slow', 'failed', 'Stopped: time limit reached']]);
  });

  it('time limit holds even for a block that ignores its signal', async () => {
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'deaf', kind: 'test.sleep', config: { ms: 20_000, ignoreSignal: true } }]));
    await started({ runTimeLimitMs: 300 });
    expect((await waitForRun(t.db, id, 'partial')).summary).toBe('Stopped: time limit reached');
  });

  it('step limit: the block past the limit does not run and shows why', async () => {
    const { blocks, edges } = chain([1, 2, 3].map((n) => ({ id: `s${n}`, kind: 'test.echo', config: { text: String(n) } })));
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    await started({ stepLimit: 2 });
    const run = await waitForRun(t.db, id, 'partial');
    expect(run.summary).toBe('Stopped: step limit reached');
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status, x.error])).toEqual([
      ['s1', 'succeeded', null],
      ['s2', 'succeeded', null],
      ['s3', 'skipped', 'Stopped: step limit reached'],
    ]);
    expect(await executions(t.db, id)).toHaveLength(2);
  });

  it("spend limit: a block answering `limit` fails its step with the block's reason; the run is partial", async () => {
    const { blocks, edges } = chain([
      { id: 'pay', kind: 'test.limit' },
      { id: 'never', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    await started();
    const run = await waitForRun(t.db, id, 'partial');
    expect(run.summary).toBe('Stopped: spend limit reached');
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status, x.error])).toEqual([['pay', 'failed', 'the account is out of credit']]);
  });
});

describe('→ awaiting_approval', () => {
  async function awaiting(): Promise<string> {
    const { blocks, edges } = chain([
      { id: 'draft', kind: 'test.echo', config: { text: 'draft' } },
      { id: 'ok', kind: 'test.approval' },
      { id: 'publish', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    const run = await waitForRun(t.db, id, 'awaiting_approval');
    expect(run).toMatchObject({ summary: 'Awaiting approval: ok', finished_at: null, lease_owner: null, lease_expires_at: null });
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status])).toEqual([
      ['draft', 'succeeded'],
      ['ok', 'awaiting'],
    ]);
    return id;
  }

  it('approve → the run continues from the approval block and succeeds; earlier blocks are not re-run', async () => {
    await started();
    const id = await awaiting();
    const r = await runs('approve', id);
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: `run ${id} approved; it continues from its approval block\n` });
    const run = await waitForRun(t.db, id, 'succeeded');
    expect(run.summary).toMatch(/^Succeeded in /);
    const s = await steps(t.db, id);
    expect(s.map((x) => [x.seq, x.node_id, x.status])).toEqual([
      [1, 'draft', 'succeeded'],
      [2, 'ok', 'succeeded'],
      [3, 'publish', 'succeeded'],
    ]);
    expect(s[1].output).toEqual({ text: 'approved' });
    expect(s[2].output!.text).toBe('ok=approved');
    expect((await executions(t.db, id)).map((e) => e.block_id)).toEqual(['draft', 'ok', 'ok', 'publish']);
  });

  it('the time spent waiting for approval does not count toward the run time limit', async () => {
    await started({ runTimeLimitMs: 1_000 });
    const id = await awaiting();
    await sleep(1_300); // longer than the whole time limit
    expect((await runs('approve', id)).code).toBe(0);
    expect((await waitForRun(t.db, id, (s) => s !== 'running' && s !== 'awaiting_approval')).status).toBe('succeeded');
  });

  it('reject → rejected; the approval step fails "Rejected"; nothing more runs', async () => {
    await started();
    const id = await awaiting();
    expect(await runs('reject', id)).toMatchObject({ code: 0, stdout: `run ${id} rejected\n` });
    const run = await runRow(t.db, id);
    expect(run).toMatchObject({ status: 'rejected', summary: 'Rejected' });
    expect(run.finished_at).toBeInstanceOf(Date);
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status, x.error])).toEqual([
      ['draft', 'succeeded', null],
      ['ok', 'failed', 'Rejected'],
    ]);
  });

  it('cancel while awaiting approval → cancelled', async () => {
    await started();
    const id = await awaiting();
    expect((await runs('cancel', id)).code).toBe(0);
    expect(await runRow(t.db, id)).toMatchObject({ status: 'cancelled', summary: 'Cancelled' });
    expect((await steps(t.db, id)).find((x) => x.node_id === 'ok')).toMatchObject({ status: 'failed', error: 'Cancelled' });
  });
});

describe('→ cancelled', () => {
  it('from queued: no worker ever runs it', async () => {
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]));
    expect(await runs('cancel', id)).toMatchObject({ code: 0, stdout: `run ${id} cancelled\n` });
    await started();
    // A run queued after it is done: the worker has been through the queue past the cancelled one.
    await waitForRun(t.db, await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'b', kind: 'test.echo' }])), 'succeeded');
    const run = await runRow(t.db, id);
    expect(run).toMatchObject({ status: 'cancelled', summary: 'Cancelled', started_at: null });
    expect(run.finished_at).toBeInstanceOf(Date);
    expect(await executions(t.db, id)).toEqual([]);
  });

  it('from running: the worker notices at its next heartbeat, stops, and overwrites nothing', async () => {
    const { blocks, edges } = chain([
      { id: 'slow', kind: 'test.sleep', config: { ms: 20_000 } },
      { id: 'after', kind: 'test.echo' },
    ]);
    const id = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, blocks, edges));
    const e = await started({ leaseMs: 300 });
    await waitForRun(t.db, id, 'running');
    await until('the slow block to start', async () => (await executions(t.db, id)).length === 1);
    expect((await runRow(t.db, id)).summary).toBe('Running: 0 of 2 blocks');
    expect((await runs('cancel', id)).code).toBe(0);
    await until('the worker to let go', () => e.stats.lost === 1);
    const run = await runRow(t.db, id);
    expect(run).toMatchObject({ status: 'cancelled', summary: 'Cancelled' });
    expect((await steps(t.db, id)).map((x) => [x.node_id, x.status, x.error])).toEqual([['slow', 'failed', 'Cancelled']]);
    expect((await executions(t.db, id)).map((x) => x.block_id)).toEqual(['slow']);
  });
});

describe('final states are final', () => {
  it('refuses every move out of a final state with exit code 1 and the reason', async () => {
    await started();
    const done = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]));
    await waitForRun(t.db, done, 'succeeded');
    for (const [move, why] of [
      ['approve', 'only a run awaiting approval can be approved'],
      ['reject', 'only a run awaiting approval can be rejected'],
      ['cancel', 'a run that has ended cannot be cancelled'],
    ]) {
      const r = await runs(move, done);
      expect(r).toMatchObject({ code: 1, stderr: `error: run ${done} is succeeded: ${why}\n` });
    }
    expect((await runRow(t.db, done)).status).toBe('succeeded');
  });

  it('approve and reject refuse a run that is not awaiting approval', async () => {
    const q = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]));
    expect((await runs('approve', q)).stderr).toMatch(/is queued: only a run awaiting approval can be approved/);
    expect((await runs('reject', q)).code).toBe(1);
    expect((await runRow(t.db, q)).status).toBe('queued');
    await runs('cancel', q);
  });
});
