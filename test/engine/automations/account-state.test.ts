// The account-state rule (src/accounts/activity.ts) in the automation engine: a suspended, lapsed
// or ended account's runs are not claimed and take no claim slot from another account; its sends
// (email.send, sms.send, notify.team) and charges (sms.send, ai.write) wait, and happen once the
// account is active again; a run caught mid-step is held, not failed; a closed account's run
// stops with "Account closed" and is billed nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { accountCommand } from '../../../src/cli/account.js';
import { ACCOUNT_CLOSED_REASON } from '../../../src/accounts/activity.js';
import { configWith, loadConfig } from '../../../src/config.js';
import { claimAutomationRuns } from '../../../src/queue/automation-run-store.js';
import { createBilling } from '../../../src/engine/billing/index.js';
import { createBlockRegistry } from '../../../src/engine/blocks/index.js';
import { Engine } from '../../../src/engine/engine.js';
import { createProviders } from '../../../src/engine/providers/index.js';
import { engineTestFile, enroll, insertAutomation, insertContact, outbox, runRow, sleep, startEngine, stepRows, testConfig, until, waitForRun } from './support.js';

const file = engineTestFile();
const { engines } = file;
// After engineTestFile's own afterEach (engines stopped): a failed test leaves nothing behind.
afterEach(async () => {
  await file.t.db.query(`update automation_runs set status = 'stopped', finished_at = now(), lease_owner = null where status in ('running', 'waiting')`);
  await file.t.db.query(`update accounts set state = 'active', subscription = 'active'`);
});

async function set(accountId: string, ...args: string[]): Promise<void> {
  const r = await accountCommand(file.t.db, ['set', '--account', accountId, ...args]);
  expect(r.code, r.stderr).toBe(0);
}

const ledger = (runId: string) =>
  file.t.db.query<{ feature: string }>('select feature from billing_ledger where automation_run_id = $1 order by at', [runId]);
const credit = async (accountId: string) =>
  Number((await file.t.db.query<{ c: string }>('select credit_micros as c from accounts where id = $1', [accountId]))[0].c);

/** An engine whose LLM waits for the test to open its gate. */
async function gatedEngine() {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const state = { calls: 0, open };
  const config = testConfig();
  const real = createProviders(configWith({ ...config, llm: loadConfig({}).llm }));
  const e = new Engine({
    db: file.t.db,
    config,
    blocks: createBlockRegistry(config),
    providers: {
      ...real,
      llm: {
        name: 'gated',
        complete: async () => {
          state.calls++;
          await gate;
          return { text: 'Hello from the model', inputTokens: 100, outputTokens: 150 };
        },
      },
    },
    billing: createBilling(file.t.db),
    stopGraceMs: 200,
  });
  engines.push(e);
  await e.start();
  return state;
}

describe('a held account: automation runs', () => {
  it.each([
    ['suspended', ['--state', 'suspended']],
    ['lapsed', ['--subscription', 'lapsed']],
    ['ended', ['--subscription', 'ended']],
  ])('the claim takes nothing of a %s account, and its runs take no slot from another account', async (_n, args) => {
    const { t, w } = file;
    const auto = await insertAutomation(t.db, w.acme, w.site, [{ id: 'e', type: 'end' }]);
    const theirsAuto = await insertAutomation(t.db, w.globex, w.globexSite, [{ id: 'e', type: 'end' }]);
    const ours = [];
    for (let i = 0; i < 3; i++) ours.push(await enroll(t.db, w.acme, auto, null));
    await sleep(5);
    const theirs = await enroll(t.db, w.globex, theirsAuto, null);
    await set(w.acme, ...args);
    expect((await claimAutomationRuns(t.db, 'test-owner', 5_000, 1)).map((r) => r.id)).toEqual([theirs]);
    expect(await claimAutomationRuns(t.db, 'test-owner', 5_000, 10)).toEqual([]);
    await set(w.acme, '--state', 'active', '--subscription', 'active');
    expect((await claimAutomationRuns(t.db, 'test-owner', 5_000, 10)).map((r) => r.id).sort()).toEqual(ours.sort());
  });

  it('a suspended account sends nothing (email, SMS, team note) and is billed nothing; all of it happens once active', async () => {
    const { t, w } = file;
    const auto = await insertAutomation(t.db, w.acme, w.site, [
      { id: 'mail', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } },
      { id: 'text', type: 'sms.send', config: { body: 'Hi by text' } },
      { id: 'team', type: 'notify.team', config: { subject: 'New lead', body: 'Look' } },
    ]);
    const c = await insertContact(t.db, w.acme);
    await set(w.acme, '--state', 'suspended');
    const before = await credit(w.acme);
    await startEngine(t.db, engines);
    const run = await enroll(t.db, w.acme, auto, c);
    await sleep(1_000); // twenty polls
    expect(await outbox(t.db, run)).toEqual([]);
    expect(await ledger(run)).toEqual([]);
    expect(await stepRows(t.db, run)).toEqual([]);
    expect((await runRow(t.db, run)).status).toBe('running');
    await set(w.acme, '--state', 'active');
    await waitForRun(t.db, run, 'succeeded');
    expect((await outbox(t.db, run)).map((m) => m.channel)).toEqual(['email', 'sms', 'team', 'team']);
    expect((await ledger(run)).map((r) => r.feature)).toEqual(['sms']);
    expect(await credit(w.acme)).toBeLessThan(before);
  });

  it('a run whose account is suspended during its ai.write is held (nothing billed or sent), and finishes once active', async () => {
    const { t, w } = file;
    const auto = await insertAutomation(t.db, w.acme, w.site, [
      { id: 'write', type: 'ai.write', config: { prompt: 'Write to {{first_name}}' } },
      { id: 'text', type: 'sms.send', config: { body: 'Hi there' } },
    ]);
    const c = await insertContact(t.db, w.acme);
    const llm = await gatedEngine();
    const run = await enroll(t.db, w.acme, auto, c);
    await until('the model to be asked', () => llm.calls === 1);
    await set(w.acme, '--state', 'suspended');
    const before = await credit(w.acme);
    llm.open();
    await until('the run to be held', async () => (await runRow(t.db, run)).lease_owner === null);
    const held = await runRow(t.db, run);
    expect(held.status).toBe('running');
    expect((await stepRows(t.db, run)).map((s) => [s.step_id, s.status])).toEqual([
      ['t', 'ok'],
      ['write', 'running'],
    ]);
    await sleep(500);
    expect(await ledger(run)).toEqual([]);
    expect(await outbox(t.db, run)).toEqual([]);
    expect(await credit(w.acme)).toBe(before);

    await set(w.acme, '--state', 'active');
    await waitForRun(t.db, run, 'succeeded');
    expect((await ledger(run)).map((r) => r.feature)).toEqual(['llm.tokens', 'sms']);
    expect((await outbox(t.db, run)).map((m) => m.channel)).toEqual(['sms']);
  });

  it('a run whose account is closed during its ai.write stops with "Account closed", billed and sending nothing', async () => {
    const { t, w } = file;
    const auto = await insertAutomation(t.db, w.acme, w.site, [
      { id: 'write', type: 'ai.write', config: { prompt: 'Write' } },
      { id: 'text', type: 'sms.send', config: { body: 'Hi there' } },
    ]);
    const c = await insertContact(t.db, w.acme);
    const llm = await gatedEngine();
    const run = await enroll(t.db, w.acme, auto, c);
    await until('the model to be asked', () => llm.calls === 1);
    // Directly in the database: the engine, not the closing command, must notice.
    await t.db.query(`update accounts set state = 'closed' where id = $1`, [w.acme]);
    const before = await credit(w.acme);
    llm.open();
    const r = await waitForRun(t.db, run, (x) => x.status !== 'running');
    expect(r).toMatchObject({ status: 'stopped', error: ACCOUNT_CLOSED_REASON });
    expect(await ledger(run)).toEqual([]);
    expect(await outbox(t.db, run)).toEqual([]);
    expect(await credit(w.acme)).toBe(before);
  });
});
