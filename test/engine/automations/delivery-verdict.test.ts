// A send step's message verdict arrives while its run is between steps (issue 10): the worker that
// ran the step died right after the step's `ok` committed, and the sender marked the step `failed`
// (not delivered) before another worker resumed the run. The resumed run carries on from after
// that step, like any run whose message failed mid-way, and ends `failed` at the send step.
import { describe, expect, it } from 'vitest';
import { Sender } from '../../../src/delivery/sender.js';
import { enqueueMessage } from '../../../src/delivery/store.js';
import { DeliveryError } from '../../../src/delivery/transports/errors.js';
import { outboxTransport } from '../../../src/delivery/transports/outbox.js';
import { engineTestFile, enroll, insertAutomation, insertContact, startEngine, stepRows, waitForRun } from './support.js';

const file = engineTestFile();

describe('a run resumed after its send step was marked not delivered', () => {
  it('carries on with the next step and ends failed at the send step', async () => {
    const { db } = file.t;
    const auto = await insertAutomation(db, file.w.acme, file.w.site, [
      { id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } },
      { id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'after' } },
    ]);
    const contact = await insertContact(db, file.w.acme);
    // No engine yet: the run is written as a worker that died after e1 committed left it.
    const run = await enroll(db, file.w.acme, auto, contact);
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at, finished_at, effect_key)
         values ($1, $2, 1, 't', 'Enrolled by hand', 'trigger', 'ok', now(), now(), null),
                ($1, $2, 2, 'e1', 'Welcome', 'email.send', 'ok', now(), now(), $3)`,
        [file.w.acme, run, `${run}:e1`],
      );
      await enqueueMessage(tx, {
        accountId: file.w.acme, channel: 'email', to: 'someone@example.org', subject: 'Hi', body: 'Hello', headers: {},
        automationRunId: run, stepId: 'e1', effectKey: `${run}:e1`,
      });
    });
    const refusing = {
      name: 'smtp',
      development: false,
      async send(): Promise<void> {
        throw new DeliveryError('SMTP server answered 550: no', 'failed', { reason: 'the mail server refused the message (550)' });
      },
    };
    await new Sender({ db, transports: { email: refusing, sms: outboxTransport() }, pollMs: 60_000 }).drain();
    expect((await stepRows(db, run)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'e1:failed']);

    await startEngine(db, file.engines);
    const done = await waitForRun(db, run, (r) => r.status !== 'running' && r.status !== 'waiting');
    expect(done).toMatchObject({ status: 'failed', failed_step_id: 'e1', error: 'Failed: Welcome: Not delivered: the mail server refused the message (550)' });
    expect((await stepRows(db, run)).map((s) => `${s.step_id}:${s.status}`)).toEqual(['t:ok', 'e1:failed', 'g:ok']);
  });
});
