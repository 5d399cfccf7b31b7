// The account-state rule (src/accounts/activity.ts) in the workflow engine, schedules, billing and
// the closing sweep: a suspended, lapsed or ended account's runs are not claimed (and take no claim
// slot from another account), its schedules skip their ticks, nothing is charged to it, a run
// caught mid-way is held where it stood and finishes once the account is active again; closing
// ends the account's runs and queued messages, whoever sets the state.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountCommand } from '../../src/cli/account.js';
import { ACCOUNT_CLOSED_REASON, ACCOUNT_CLOSED_SUMMARY } from '../../src/accounts/activity.js';
import { HELD_SUMMARY } from '../../src/engine/account-hold.js';
import { createBilling } from '../../src/engine/billing/index.js';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { claimRuns } from '../../src/queue/workflow-run-store.js';
import { tickSchedules } from '../../src/engine/schedules/ticker.js';
import { tickAutomationSchedules } from '../../src/engine/automations/schedule.js';
import type { Providers } from '../../src/engine/types.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { enqueueMessage } from '../../src/delivery/store.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import {
  chain,
  executions,
  insertWorkflow,
  noProviders,
  queueRun,
  runRow,
  seedAccounts,
  sleep,
  steps,
  testBlocks,
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
  await t.db.query(`update accounts set credit_micros = 10000000`);
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
  await t.db.query(`update workflow_runs set status = 'cancelled', summary = 'Cancelled', finished_at = now(), lease_owner = null
                     where status in ('queued', 'running', 'awaiting_approval')`);
  await t.db.query(`update accounts set state = 'active', subscription = 'active'`);
});
afterAll(() => t?.close());

async function set(accountId: string, ...args: string[]): Promise<string> {
  const r = await accountCommand(t.db, ['set', '--account', accountId, ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

function engine(cfg: Parameters<typeof testEngine>[1] = {}, opts: Parameters<typeof testEngine>[2] = {}): Engine {
  const e = testEngine(t.db, cfg, opts);
  engines.push(e);
  return e;
}

/** An LLM whose answers wait until the test opens the gate. */
function gatedLlm() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const state = { calls: 0, open };
  const providers: Providers = {
    ...noProviders,
    llm: {
      name: 'gated',
      complete: async () => {
        state.calls++;
        await gate;
        return { text: 'written', inputTokens: 100, outputTokens: 150 };
      },
    },
  };
  return { state, providers };
}

const ledger = (runId: string) =>
  t.db.query<{ micros: number }>(`select micros from billing_ledger where workflow_run_id = $1`, [runId]);
const balance = async (accountId: string) =>
  Number((await t.db.query<{ c: number }>(`select credit_micros as c from accounts where id = $1`, [accountId]))[0].c);

const HOLDS: [string, string[]][] = [
  ['suspended', ['--state', 'suspended']],
  ['lapsed', ['--subscription', 'lapsed']],
  ['ended', ['--subscription', 'ended']],
];

describe('a held account: workflow runs', () => {
  it.each(HOLDS)('the claim takes nothing of a %s account, and its runs take no slot from another account', async (_name, args) => {
    const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const gwf = await insertWorkflow(t.db, globex, [{ id: 'a', kind: 'test.echo' }]);
    for (let i = 0; i < 3; i++) await queueRun(t.db, acme, wf); // older than globex's
    await sleep(5);
    const theirs = await queueRun(t.db, globex, gwf);
    await set(acme, ...args);
    const one = await claimRuns(t.db, 'test-owner', 5_000, 1);
    expect(one.map((r) => r.id)).toEqual([theirs]);
    expect(await claimRuns(t.db, 'test-owner', 5_000, 10)).toEqual([]);
    await set(acme, '--state', 'active', '--subscription', 'active');
    expect((await claimRuns(t.db, 'test-owner', 5_000, 10)).map((r) => r.account_id)).toEqual([acme, acme, acme]);
  });

  it('a queued run of a suspended account does not start; it runs once the account is active again', async () => {
    const { blocks, edges } = chain([{ id: 'a', kind: 'test.echo', config: { text: 'hi' } }]);
    const wf = await insertWorkflow(t.db, acme, blocks, edges);
    await set(acme, '--state', 'suspended');
    const run = await queueRun(t.db, acme, wf);
    await engine().start();
    await sleep(1_000); // ten polls
    expect((await runRow(t.db, run)).status).toBe('queued');
    expect(await executions(t.db, run)).toEqual([]);
    await set(acme, '--state', 'active');
    await waitForRun(t.db, run, 'succeeded');
  });

  it('a run whose account is suspended mid-run is held where it stood, and finishes once active (held time is not run time)', async () => {
    const { blocks, edges } = chain([
      { id: 'a', kind: 'test.sleep', config: { ms: 600 } },
      { id: 'b', kind: 'test.echo', config: { text: 'after' } },
    ]);
    const wf = await insertWorkflow(t.db, acme, blocks, edges);
    await engine({ runTimeLimitMs: 2_500 }).start();
    const run = await queueRun(t.db, acme, wf);
    await until('block a to start', async () => (await executions(t.db, run)).length === 1);
    await set(acme, '--state', 'suspended');
    await until('the run to be held', async () => {
      const r = await runRow(t.db, run);
      return r.summary === HELD_SUMMARY && r.lease_owner === null;
    });
    // Held longer than the run's time limit: the wait must not count.
    await sleep(3_000);
    const held = await runRow(t.db, run);
    expect(held.status).toBe('running');
    expect((await executions(t.db, run)).filter((e) => e.block_id === 'b')).toEqual([]);
    await set(acme, '--state', 'active');
    const done = await waitForRun(t.db, run, (s) => s !== 'running');
    expect(done.status).toBe('succeeded');
    expect((await steps(t.db, run)).map((s) => [s.node_id, s.status])).toEqual([
      ['a', 'succeeded'],
      ['b', 'succeeded'],
    ]);
  });

  it('an agent block whose charge meets a suspension holds the run: nothing billed; once active it is billed once and succeeds', async () => {
    const llm = gatedLlm();
    const blocks = new Map([...testBlocks(), ...createBlockRegistry()]);
    engine({}, { blocks, providers: llm.providers, billing: createBilling(t.db) });
    await engines[0].start();
    const wf = await insertWorkflow(t.db, acme, [{ id: 'w', kind: 'agent', config: { prompt: 'Write.' } }]);
    const before = await balance(acme);
    const run = await queueRun(t.db, acme, wf);
    await until('the model to be asked', () => llm.state.calls === 1);
    await set(acme, '--state', 'suspended');
    llm.state.open();
    await until('the run to be held', async () => (await runRow(t.db, run)).summary === HELD_SUMMARY);
    expect((await runRow(t.db, run)).status).toBe('running');
    expect(await ledger(run)).toEqual([]);
    expect(await balance(acme)).toBe(before);

    await set(acme, '--state', 'active');
    await waitForRun(t.db, run, 'succeeded');
    const rows = await ledger(run);
    expect(rows).toHaveLength(1);
    expect(await balance(acme)).toBe(before - Number(rows[0].micros));
  });
});

describe('charges', () => {
  it.each([...HOLDS, ['closed', ['--state', 'closed']] as [string, string[]]])(
    'a charge to a %s account is refused and moves nothing',
    async (_name, args) => {
      const billing = createBilling(t.db);
      await set(acme, ...args);
      const before = await balance(acme);
      const key = `acct-state:${uuidv7()}`;
      const r = await billing.charge({ accountId: acme, keyId: null, feature: 'sms', micros: 8_000, effectKey: key });
      expect(r).toEqual({ ok: false, reason: 'account' });
      expect(await balance(acme)).toBe(before);
      expect(await t.db.query(`select 1 from billing_ledger where effect_key = $1`, [key])).toEqual([]);
      await set(acme, '--state', 'active', '--subscription', 'active');
      expect(await billing.charge({ accountId: acme, keyId: null, feature: 'sms', micros: 8_000, effectKey: key })).toEqual({ ok: true });
    },
  );
});

describe('schedules of a held or closed account', () => {
  it.each([...HOLDS, ['closed', ['--state', 'closed']] as [string, string[]]])(
    'a due workflow schedule of a %s account is skipped (no run, moved on), and fires again once active',
    async (_name, args) => {
      const wf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
      const due = () =>
        t.db.query(`update workflows set schedule = '* * * * *', schedule_timezone = 'UTC', schedule_next_at = now() - interval '5 minutes' where id = $1`, [wf]);
      await due();
      await set(acme, ...args);
      expect(await tickSchedules(t.db, 0)).toBe(0);
      expect(await t.db.query(`select 1 from workflow_runs where workflow_id = $1`, [wf])).toEqual([]);
      const [moved] = await t.db.query<{ later: boolean }>(`select schedule_next_at > now() as later from workflows where id = $1`, [wf]);
      expect(moved.later).toBe(true);
      await set(acme, '--state', 'active', '--subscription', 'active');
      await due();
      expect(await tickSchedules(t.db, 0)).toBe(1);
      expect(await t.db.query(`select trigger from workflow_runs where workflow_id = $1`, [wf])).toEqual([{ trigger: 'schedule' }]);
      await t.db.query(`update workflows set schedule = null, schedule_next_at = null where id = $1`, [wf]);
    },
  );

  it('a due automation schedule of a suspended account is skipped, and fires again once active', async () => {
    const [p] = await t.db.query<{ id: string }>(`select id from projects where account_id = $1 limit 1`, [acme]).then(async (rows) => {
      if (rows.length) return rows;
      const id = uuidv7();
      await t.db.query(`insert into projects (account_id, id, name) values ($1, $2, 'P')`, [acme, id]);
      return [{ id }];
    });
    const id = uuidv7();
    const trigger = { type: 'schedule', label: 'Every minute', config: { cron: '* * * * *' } };
    const stepsJson = JSON.stringify([{ id: 'n', name: 'n', type: 'tag.add', config: { tag: 'x' } }]);
    await t.db.query(
      `insert into automations (account_id, id, project_id, name, status, trigger, steps, published_version, schedule_next_at)
       values ($1, $2, $3, 'Scheduled', 'published', $4, $5, 1, now() - interval '5 minutes')`,
      [acme, id, p.id, JSON.stringify(trigger), stepsJson],
    );
    await t.db.query(`insert into automation_versions (account_id, automation_id, version, trigger, steps) values ($1, $2, 1, $3, $4)`, [
      acme,
      id,
      JSON.stringify(trigger),
      stepsJson,
    ]);
    await set(acme, '--state', 'suspended');
    expect(await tickAutomationSchedules(t.db)).toBe(0);
    expect(await t.db.query(`select 1 from automation_runs where automation_id = $1`, [id])).toEqual([]);
    const [moved] = await t.db.query<{ later: boolean }>(`select schedule_next_at > now() as later from automations where id = $1`, [id]);
    expect(moved.later).toBe(true);
    await set(acme, '--state', 'active');
    await t.db.query(`update automations set schedule_next_at = now() - interval '1 minute' where id = $1`, [id]);
    expect(await tickAutomationSchedules(t.db)).toBe(1);
    await t.db.query(`update automations set status = 'paused' where id = $1`, [id]);
    await t.db.query(`update automation_runs set status = 'stopped', finished_at = now() where automation_id = $1 and status in ('running', 'waiting')`, [id]);
  });
});

describe('closing an account', () => {
  it('account set --state closed ends its runs and queued messages in the same transaction; other accounts keep theirs', async () => {
    const queuedWf = await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]);
    const approvalWf = await insertWorkflow(t.db, acme, [{ id: 'ok', kind: 'test.approval' }]);
    const e = engine();
    await e.start();
    const awaiting = await queueRun(t.db, acme, approvalWf);
    await waitForRun(t.db, awaiting, 'awaiting_approval');
    await e.stop();
    const queued = await queueRun(t.db, acme, queuedWf);
    const theirs = await queueRun(t.db, globex, await insertWorkflow(t.db, globex, [{ id: 'a', kind: 'test.echo' }]));
    const [project] = await t.db.query<{ id: string }>(`insert into projects (account_id, id, name) values ($1, $2, 'P') returning id`, [acme, uuidv7()]);
    const auto = uuidv7();
    await t.db.query(
      `insert into automations (account_id, id, project_id, name, status, trigger, steps, published_version)
       values ($1, $2, $3, 'A', 'published', '{"type":"manual"}', '[]', 1)`,
      [acme, auto, project.id],
    );
    const waitingRun = uuidv7();
    await t.db.query(
      `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, run_at, next_at)
       values ($1, $2, $3, null, 'waiting', 'test', 1, now() + interval '1 day', now() + interval '1 day')`,
      [acme, waitingRun, auto],
    );
    await t.db.query(
      `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at) values ($1, $2, 1, 'w', 'Wait', 'wait', 'waiting', now())`,
      [acme, waitingRun],
    );
    const msg = await t.db.transaction((tx) =>
      enqueueMessage(tx, { accountId: acme, channel: 'email', to: 'x@example.org', subject: 's', body: 'b', headers: {}, automationRunId: null, stepId: null, effectKey: `closing:${uuidv7()}` }),
    );

    const out = await set(acme, '--state', 'closed');
    expect(out).toMatch(/closed: 2 workflow runs cancelled, 1 automation runs stopped, 1 queued messages failed/);

    for (const id of [queued, awaiting]) {
      expect(await runRow(t.db, id)).toMatchObject({ status: 'cancelled', summary: ACCOUNT_CLOSED_SUMMARY });
    }
    expect((await steps(t.db, awaiting)).map((s) => [s.status, s.error])).toEqual([['failed', ACCOUNT_CLOSED_REASON]]);
    const [ar] = await t.db.query(`select status, error from automation_runs where id = $1`, [waitingRun]);
    expect(ar).toEqual({ status: 'stopped', error: ACCOUNT_CLOSED_REASON });
    const [as] = await t.db.query(`select status, error from automation_run_steps where run_id = $1`, [waitingRun]);
    expect(as).toEqual({ status: 'skipped', error: ACCOUNT_CLOSED_REASON });
    const [m] = await t.db.query(`select status, error from outbox where id = $1`, [msg.id]);
    expect(m).toEqual({ status: 'failed', error: 'account closed' });
    expect((await runRow(t.db, theirs)).status).toBe('queued');
  });

  it('the engine ends a closed account\'s work it finds (state set in the database): queued and in-flight runs, nothing billed', async () => {
    const llm = gatedLlm();
    const blocks = new Map([...testBlocks(), ...createBlockRegistry()]);
    engine({}, { blocks, providers: llm.providers, billing: createBilling(t.db) });
    await engines[0].start();
    const agentWf = await insertWorkflow(t.db, acme, [{ id: 'w', kind: 'agent', config: { prompt: 'Write.' } }]);
    const before = await balance(acme);
    const inFlight = await queueRun(t.db, acme, agentWf);
    await until('the model to be asked', () => llm.state.calls === 1);
    // Directly in the database, as another tool or process would: no sweep runs with it.
    await t.db.query(`update accounts set state = 'closed' where id = $1`, [acme]);
    const queued = await queueRun(t.db, acme, await insertWorkflow(t.db, acme, [{ id: 'a', kind: 'test.echo' }]));
    await waitForRun(t.db, queued, 'cancelled');
    llm.state.open();
    const r = await waitForRun(t.db, inFlight, (s) => s !== 'running');
    expect(r).toMatchObject({ status: 'cancelled', summary: ACCOUNT_CLOSED_SUMMARY });
    expect((await runRow(t.db, queued)).summary).toBe(ACCOUNT_CLOSED_SUMMARY);
    expect(await executions(t.db, queued)).toEqual([]);
    await sleep(300);
    expect(await ledger(inFlight)).toEqual([]);
    expect(await balance(acme)).toBe(before);
  });
});
