// Runs that fail (issue 23). A template the engine cannot render, in a version published through an
// older path (the store row written directly), used to throw out of the step, and the engine
// released the run for an immediate retry, forever: ~185,000 error lines in 32 minutes, `attempt`
// at 41,153, the run still `running`. Now an error that would fail the same way again ends the
// step and the run `failed` at once, with words a person reads; any other error is retried after
// an exponential backoff, up to SWITCHBOARD_RUN_MAX_ATTEMPTS, then the run ends `failed` ("gave up
// after N attempts"), for workflow runs and automation runs alike; and the same error over many
// runs is logged once, then counted.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { Engine } from '../../src/engine/engine.js';
import { createBilling } from '../../src/engine/billing/index.js';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import { createProviders } from '../../src/engine/providers/index.js';
import { AUTOMATION_RUN_QUEUE, WORKFLOW_RUN_QUEUE, type EngineQueue } from '../../src/engine/queues.js';
import type { EngineLog } from '../../src/queue/log.js';
import type { ClaimedItem } from '../../src/queue/queue.js';
import type { EngineConfig } from '../../src/config.js';
import { engineTestFile, enroll, insertAutomation, insertContact, outbox, stepRows, testConfig, until, waitForRun } from './automations/support.js';
import { insertWorkflow, queueRun, runRow as workflowRunRow, steps as workflowSteps, waitForRun as waitForWorkflowRun } from './support.js';

const file = engineTestFile();

interface Line {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string;
}

function recorder(): EngineLog & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: Line['level']) => (obj: object, msg?: string) => lines.push({ level, obj: obj as Record<string, unknown>, msg: msg ?? '' });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A queue whose executions throw `err` while `throwing(item)` says so, and work for real otherwise; claims are recorded. */
function failing(q: EngineQueue<ClaimedItem>, err: () => Error, throwing: (item: ClaimedItem) => boolean) {
  const claims: Array<{ at: number; attempt: number; failures: number }> = [];
  const queue: EngineQueue<ClaimedItem> = {
    queue: q.queue,
    giveUp: q.giveUp,
    async work(res, item, lease) {
      claims.push({ at: Date.now(), attempt: item.attempt, failures: item.failures });
      if (throwing(item)) throw err();
      return q.work(res, item, lease);
    },
  };
  return { queue, claims };
}

async function engine(db: Db, log: EngineLog, engineConfig: Partial<EngineConfig>, queues?: ReadonlyArray<EngineQueue<ClaimedItem>>): Promise<Engine> {
  const config = testConfig(engineConfig);
  const e = new Engine({ db, config, blocks: createBlockRegistry(config), providers: createProviders(config), billing: createBilling(db), log, queues, stopGraceMs: 200 });
  file.engines.push(e);
  await e.start();
  return e;
}

const failures = async (db: Db, table: 'automation_runs' | 'workflow_runs', id: string) =>
  (await db.query<{ failures: number }>(`select failures from ${table} where id = $1`, [id]))[0].failures;

describe('a template that cannot be rendered, published through an older path', () => {
  // Each field the engine renders, broken in the stored version; the step's other settings are valid.
  const CASES: ReadonlyArray<[string, Record<string, unknown>, string]> = [
    ['email.send', { subject: 'Hi {{first_name', body: 'Hello' }, 'config.subject has a "{{" that is never closed with "}}"'],
    ['email.send', { subject: 'Hi', body: '{{#tags}}never closed' }, 'config.body opens a section {{#tags}} that is never closed with {{/tags}}'],
    ['sms.send', { body: 'x{{/name}}' }, 'config.body closes a section {{/name}} that was never opened'],
    ['notify.team', { subject: 'New: {{name', body: 'x' }, 'config.subject has a "{{" that is never closed with "}}"'],
    ['task.create', { title: 'Call {{name' }, 'config.title has a "{{" that is never closed with "}}"'],
    ['field.set', { field: 'first_name', value: '{{=a=}}' }, 'config.value changes the {{ }} delimiters to something Mustache cannot use'],
    ['ai.write', { prompt: 'Write to {{first_name' }, 'config.prompt has a "{{" that is never closed with "}}"'],
  ];

  it.each(CASES)('%s: the step and the run end failed at the first attempt, with no error logged and nothing sent', async (type, config, words) => {
    const { db } = file.t;
    const auto = await insertAutomation(db, file.w.acme, file.w.plain, [
      { id: 'a', name: 'Broken step', type, config },
      { id: 'z', name: 'After', type: 'tag.add', config: { tag: 'never' } },
    ]);
    const contact = await insertContact(db, file.w.acme);
    const run = await enroll(db, file.w.acme, auto, contact);
    // A run that looped on an older release: its attempts in the tens of thousands, ended by the new rule.
    await db.query(`update automation_runs set attempt = 41153 where id = $1`, [run]);
    const log = recorder();
    const e = await engine(db, log, { runMaxAttempts: 8 });
    const done = await waitForRun(db, run, (r) => r.status !== 'running');
    expect(done).toMatchObject({ status: 'failed', failed_step_id: 'a', error: `Failed: Broken step: ${words}`, attempt: 41154 });
    expect((await stepRows(db, run)).map((s) => [s.step_id, s.status, s.error])).toEqual([
      ['t', 'ok', null],
      ['a', 'failed', words],
    ]);
    expect(await outbox(db, run)).toEqual([]);
    expect(await failures(db, 'automation_runs', run)).toBe(0);
    expect(e.stats).toMatchObject({ claimed: 1, settled: 1, errored: 0, gaveUp: 0 });
    expect(log.lines.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('a step name stands in for a missing subject as written: "{{" in a name is text, not a template', async () => {
    const { db } = file.t;
    const auto = await insertAutomation(db, file.w.acme, file.w.plain, [{ id: 'n', name: 'Call {{first_name', type: 'notify.team', config: { body: 'x' } }]);
    const run = await enroll(db, file.w.acme, auto, await insertContact(db, file.w.acme));
    await engine(db, recorder(), {});
    expect(await waitForRun(db, run, 'succeeded')).toMatchObject({ error: null });
    expect(new Set((await outbox(db, run)).map((m) => m.subject))).toEqual(new Set(['Call {{first_name']));
  });
});

describe('an execution that throws anything else', () => {
  it('an automation run is retried after a growing backoff, then ends failed: "gave up after N attempts"', async () => {
    const { db } = file.t;
    const auto = await insertAutomation(db, file.w.acme, file.w.plain, [{ id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'x' } }]);
    const run = await enroll(db, file.w.acme, auto, await insertContact(db, file.w.acme));
    const f = failing(AUTOMATION_RUN_QUEUE, () => new Error('the store went away'), () => true);
    const log = recorder();
    const e = await engine(db, log, { runMaxAttempts: 4, runRetryBaseMs: 200 }, [f.queue]);
    const done = await waitForRun(db, run, (r) => r.status !== 'running');
    expect(done).toMatchObject({
      status: 'failed',
      error: "Failed: gave up after 4 attempts: the server met an error it could not get past (the operator's log has it)",
    });
    expect(f.claims.map((c) => c.failures)).toEqual([0, 1, 2, 3]);
    // Equal jitter: the n-th retry waits at least half of base × 2^(n-1).
    const gaps = f.claims.slice(1).map((c, i) => c.at - f.claims[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[1]).toBeGreaterThanOrEqual(200);
    expect(gaps[2]).toBeGreaterThanOrEqual(400);
    expect(e.stats).toMatchObject({ errored: 4, gaveUp: 1 });
    const errors = log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual(['run execution failed; retrying after a backoff', 'run kept failing: gave up, ended failed']);
    expect(errors[0].obj).toMatchObject({ kind: 'automation run', runId: run, failures: 1, retryInMs: expect.any(Number) });
  });

  it('a workflow run alike: the step it was in ends failed with it', async () => {
    const { db } = file.t;
    const wf = await insertWorkflow(db, file.w.acme, [{ id: 'src', kind: 'source.text', config: { text: 'x' } }]);
    const run = await queueRun(db, file.w.acme, wf);
    // As a worker that died inside the block left it: the step open, the run running.
    await db.query(
      `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, effect_key) values ($1, $2, 1, 'src', 'source.text', 'running', now(), $3)`,
      [file.w.acme, run, `${run}:src`],
    );
    const f = failing(WORKFLOW_RUN_QUEUE, () => new TypeError("Cannot read properties of undefined (reading 'x')"), () => true);
    const e = await engine(db, recorder(), { runMaxAttempts: 3, runRetryBaseMs: 20 }, [f.queue]);
    const done = await waitForWorkflowRun(db, run, (s) => s !== 'running' && s !== 'queued');
    expect(done).toMatchObject({ status: 'failed', summary: "Failed: gave up after 3 attempts: the server met an error it could not get past (the operator's log has it)" });
    expect(done.finished_at).not.toBeNull();
    expect((await workflowSteps(db, run)).map((s) => [s.node_id, s.status, s.error])).toEqual([
      ['src', 'failed', "gave up after 3 attempts: the server met an error it could not get past (the operator's log has it)"],
    ]);
    expect(f.claims.map((c) => c.failures)).toEqual([0, 1, 2]);
    expect(e.stats.gaveUp).toBe(1);
  });

  it('an error that passes: the run goes on once it stops, and its failures are forgotten at its next wait', async () => {
    const { db } = file.t;
    const auto = await insertAutomation(db, file.w.acme, file.w.plain, [
      { id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'first' } },
      { id: 'w', name: 'Wait', type: 'wait', config: { duration: 'P1D' } },
    ]);
    const run = await enroll(db, file.w.acme, auto, await insertContact(db, file.w.acme));
    const f = failing(AUTOMATION_RUN_QUEUE, () => new Error('connection reset'), (item) => item.failures < 2);
    await engine(db, recorder(), { runMaxAttempts: 3, runRetryBaseMs: 20 }, [f.queue]);
    await waitForRun(db, run, 'waiting');
    expect(f.claims.map((c) => c.failures)).toEqual([0, 1, 2]);
    expect(await failures(db, 'automation_runs', run)).toBe(0);
    expect((await stepRows(db, run)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'g:ok', 'w:waiting']);
  });

  it('the same error over many runs is logged once, then counted', async () => {
    const { db } = file.t;
    const auto = await insertAutomation(db, file.w.acme, file.w.plain, [{ id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'x' } }]);
    const runs: string[] = [];
    for (let i = 0; i < 20; i++) runs.push(await enroll(db, file.w.acme, auto, await insertContact(db, file.w.acme)));
    const f = failing(AUTOMATION_RUN_QUEUE, () => new Error('the store went away'), () => true);
    const log = recorder();
    const e = await engine(db, log, { runMaxAttempts: 3, runRetryBaseMs: 10 }, [f.queue]);
    for (const run of runs) await waitForRun(db, run, 'failed');
    await until('every run given up', () => e.stats.gaveUp === 20);
    await e.stop();
    // 60 executions threw (40 retried, 20 given up): one line for the first of each, one count each at stop.
    const errors = log.lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => [l.msg.replace(/ \(the same error .*\)$/, ' (count)'), l.obj.repeated ?? null])).toEqual([
      ['run execution failed; retrying after a backoff', null],
      ['run kept failing: gave up, ended failed', null],
      ['run execution failed; retrying after a backoff (count)', 39],
      ['run kept failing: gave up, ended failed (count)', 19],
    ]);
    expect(errors[0].obj.err).toBeInstanceOf(Error);
    expect(errors[2].obj.err).toBeUndefined();
  });
});

describe('a block that fails', () => {
  it('ends its workflow run failed at once, without a retry', async () => {
    const { db } = file.t;
    const wf = await insertWorkflow(db, file.w.acme, [{ id: 'web', kind: 'source.web', config: { url: 'http://127.0.0.1:9/nothing' } }]);
    const run = await queueRun(db, file.w.acme, wf);
    const e = await engine(db, recorder(), { runMaxAttempts: 3, runRetryBaseMs: 20 });
    const done = await waitForWorkflowRun(db, run, (s) => s !== 'running' && s !== 'queued');
    expect(done.status).toBe('failed');
    expect((await workflowRunRow(db, run)).attempt).toBe(1);
    expect(e.stats.errored).toBe(0);
  });
});
