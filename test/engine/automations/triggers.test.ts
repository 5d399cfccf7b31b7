// Trigger-started automation runs: the Run-only-if filter applies (a non-match is a `skipped`
// run that never executes), and schedule triggers start one run with no contact per occurrence.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../../src/config.js';
import { createEngine } from '../../../src/engine/engine.js';
import { tickAutomationSchedules } from '../../../src/engine/automations/schedule.js';
import { startTriggeredRun } from '../../../src/engine/automations/triggers.js';
import { seedFixture } from '../../../src/fixtures/load.js';
import { freshDb, type TestDb } from '../../helpers/db.js';

let t: TestDb;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
const email = [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello {{first_name}}' } }];

beforeAll(async () => {
  t = await freshDb();
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            projects: [{ ref: 'p', name: 'P' }],
            automations: [
              {
                ref: 'leads',
                name: 'Leads only',
                project: 'p',
                status: 'published',
                trigger: { type: 'webhook', label: 'Form posted' },
                run_only_if: { field: 'lifecycle_stage', op: 'in', value: ['lead'] },
                steps: email,
              },
              {
                ref: 'daily',
                name: 'Daily',
                project: 'p',
                status: 'published',
                trigger: { type: 'schedule', label: 'Every day at 9', config: { cron: '0 9 * * *', timezone: 'Europe/Paris' } },
                steps: email,
              },
            ],
            contacts: [
              { ref: 'lead', email: 'lead@example.org', first_name: 'Lea', lifecycle_stage: 'lead' },
              { ref: 'cust', email: 'cust@example.org', first_name: 'Cus', lifecycle_stage: 'customer' },
            ],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

const run = async (id: string) =>
  (await t.db.query<{ status: string; contact_id: string | null; finished_at: Date | null; started_by: string }>(
    'select status, contact_id, finished_at, started_by from automation_runs where id = $1',
    [id],
  ))[0];

describe('trigger-started runs', () => {
  it('apply the Run-only-if filter: a match starts, a non-match is a skipped run', async () => {
    const a = S.a;
    const hit = await t.db.transaction((tx) =>
      startTriggeredRun(tx, { accountId: a.id, automationId: a.automations.leads, contactId: a.contacts.lead, startedBy: 'Webhook' }),
    );
    const miss = await t.db.transaction((tx) =>
      startTriggeredRun(tx, { accountId: a.id, automationId: a.automations.leads, contactId: a.contacts.cust, startedBy: 'Webhook' }),
    );
    expect(hit.status).toBe('started');
    expect(miss.status).toBe('skipped');
    expect(await run((hit as { runId: string }).runId)).toMatchObject({ status: 'running', started_by: 'Webhook' });
    const skipped = await run((miss as { runId: string }).runId);
    expect(skipped.status).toBe('skipped');
    expect(skipped.finished_at).not.toBeNull();
    // The same contact is not started twice while its run is active.
    const again = await t.db.transaction((tx) =>
      startTriggeredRun(tx, { accountId: a.id, automationId: a.automations.leads, contactId: a.contacts.lead, startedBy: 'Webhook' }),
    );
    expect(again).toEqual({ status: 'ignored', reason: 'already_enrolled' });
  });

  it('a schedule is planned first, then starts one run with no contact per occurrence, even with several tickers', async () => {
    const a = S.a;
    await tickAutomationSchedules(t.db);
    const count = async () =>
      (await t.db.query<{ n: number }>('select count(*)::int as n from automation_runs where automation_id = $1', [a.automations.daily]))[0].n;
    expect(await count()).toBe(0);
    const [{ schedule_next_at: next }] = await t.db.query<{ schedule_next_at: Date }>('select schedule_next_at from automations where id = $1', [
      a.automations.daily,
    ]);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect([7, 8]).toContain(next.getUTCHours()); // 09:00 in Paris
    await t.db.query(`update automations set schedule_next_at = now() - interval '1 second' where id = $1`, [a.automations.daily]);
    const started = await Promise.all([tickAutomationSchedules(t.db), tickAutomationSchedules(t.db), tickAutomationSchedules(t.db)]);
    expect(started.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await count()).toBe(1);
  });

  it('a scheduled run with no contact skips its contact steps and succeeds', async () => {
    const engine = createEngine(t.db, configWith({ engine: { ...configWith({}).engine, pollMs: 50 } }));
    await engine.start();
    try {
      const [r] = await t.db.query<{ id: string }>('select id from automation_runs where automation_id = $1', [S.a.automations.daily]);
      const deadline = Date.now() + 10_000;
      let row = await run(r.id);
      while (row.status === 'running' && Date.now() < deadline) {
        await new Promise((res) => setTimeout(res, 50));
        row = await run(r.id);
      }
      expect(row).toMatchObject({ status: 'succeeded', contact_id: null, started_by: 'Schedule' });
      const steps = await t.db.query<{ step_id: string; status: string; error: string | null }>(
        'select step_id, status, error from automation_run_steps where run_id = $1 order by seq',
        [r.id],
      );
      expect(steps).toEqual([
        { step_id: 't', status: 'ok', error: null },
        { step_id: 'e1', status: 'skipped', error: 'Skipped: no contact' },
      ]);
    } finally {
      await engine.stop();
    }
  });
});
