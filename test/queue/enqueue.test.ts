// src/queue/enqueue.ts: the only inserters of runs. Each start writes the row the claim reads and
// wakes the engines on commit, except a filter-skipped automation run (it never executes); a test
// run moves no counter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { RUNS_CHANNEL } from '../../src/queue/channels.js';
import { enqueueAutomationRun, enqueueWorkflowRun } from '../../src/queue/enqueue.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
let A: Awaited<ReturnType<typeof seedFixture>>['accounts']['a'];
let notified = 0;
let unlisten: (() => Promise<void>) | null = null;

beforeAll(async () => {
  t = await freshDb();
  A = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            projects: [{ ref: 'p', name: 'P' }],
            workflows: [{ ref: 'wf', name: 'w', blocks: [{ id: 'src', kind: 'source.text', config: { text: 'x' } }], edges: [] }],
            automations: [
              {
                ref: 'hook',
                name: 'Hook',
                project: 'p',
                status: 'published',
                trigger: { type: 'webhook', label: 'Form posted' },
                steps: [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }],
              },
            ],
            contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts.a;
  unlisten = await t.db.listen(RUNS_CHANNEL, () => notified++);
});
afterAll(async () => {
  await unlisten?.();
  await t?.close();
});

/** Waits for the count of notifications to reach `n` (they arrive after the commit). */
async function notifications(n: number): Promise<number> {
  for (let i = 0; i < 100 && notified < n; i++) await new Promise((r) => setTimeout(r, 20));
  return notified;
}

const lastRunAt = async () =>
  (await t.db.query<{ last_run_at: Date | null }>(`select last_run_at from automations where account_id = $1 and id = $2`, [A.id, A.automations.hook]))[0]
    .last_run_at;

const automationRun = async (id: string) =>
  (
    await t.db.query<{ status: string; test: boolean; tester_email: string | null; finished_at: Date | null; error: string | null; contact_id: string | null }>(
      `select status, test, tester_email, finished_at, error, contact_id from automation_runs where account_id = $1 and id = $2`,
      [A.id, id],
    )
  )[0];

describe('enqueueWorkflowRun', () => {
  it('inserts a queued run and wakes the engines on commit', async () => {
    const before = notified;
    const row = await t.db.transaction((tx) => enqueueWorkflowRun(tx, { accountId: A.id, workflowId: A.workflows.wf, trigger: 'manual', keyId: null, startDelayMs: 0 }));
    expect(row).toMatchObject({ workflow_id: A.workflows.wf, status: 'queued', trigger: 'manual' });
    expect(await notifications(before + 1)).toBe(before + 1);
  });
});

describe('enqueueAutomationRun', () => {
  it('a run for a contact: running, ready now, last_run_at set, engines woken', async () => {
    const before = notified;
    const id = uuidv7();
    await t.db.transaction((tx) =>
      enqueueAutomationRun(tx, { accountId: A.id, automationId: A.automations.hook, version: 1, startedBy: 'Webhook', runs: [{ id, contactId: A.contacts.ann }] }),
    );
    expect(await automationRun(id)).toMatchObject({ status: 'running', test: false, tester_email: null, finished_at: null, contact_id: A.contacts.ann });
    expect(await lastRunAt()).not.toBeNull();
    expect(await notifications(before + 1)).toBe(before + 1);
  });

  it('a skipped run is finished at once with its error and wakes no engine', async () => {
    const id = uuidv7();
    await t.db.transaction((tx) =>
      enqueueAutomationRun(tx, {
        accountId: A.id,
        automationId: A.automations.hook,
        version: 1,
        startedBy: 'Webhook',
        runs: [{ id, contactId: null }],
        skipped: true,
        error: 'filter failed',
      }),
    );
    const before = notified;
    expect(await automationRun(id)).toMatchObject({ status: 'skipped', error: 'filter failed', contact_id: null });
    expect((await automationRun(id)).finished_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    expect(notified).toBe(before);
  });

  it('a test run carries the tester and moves no counter', async () => {
    const last = await lastRunAt();
    const before = notified;
    const id = uuidv7();
    await t.db.transaction((tx) =>
      enqueueAutomationRun(tx, {
        accountId: A.id,
        automationId: A.automations.hook,
        version: 1,
        startedBy: 'Test by o',
        runs: [{ id, contactId: A.contacts.ann }],
        testerEmail: 'o@a.example',
      }),
    );
    expect(await automationRun(id)).toMatchObject({ status: 'running', test: true, tester_email: 'o@a.example' });
    expect(await lastRunAt()).toEqual(last);
    expect(await notifications(before + 1)).toBe(before + 1);
  });

  it('no runs: nothing is written', async () => {
    const last = await lastRunAt();
    await t.db.transaction((tx) => enqueueAutomationRun(tx, { accountId: A.id, automationId: A.automations.hook, version: 1, startedBy: 'API', runs: [] }));
    expect(await lastRunAt()).toEqual(last);
  });
});
