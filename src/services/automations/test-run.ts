// A builder's test run (DESIGN 9), as the hub and `switchboard automations test` start one: it
// runs the published version for one contact, sends only to the person testing (their address
// is fixed on the run now), changes no records, and moves no counter (not last_run_at, not the
// enrollments; the one-active-run index leaves test runs out).
import type { Db } from '../../db/db.js';
import { uuidv7 } from '../../lib/ids.js';
import { Refusal } from '../refusal.js';
import { enqueueAutomationRun } from '../../queue/enqueue.js';
import { automationForTest, contactStateForTest, testerOf } from './store.js';

export interface TestRunRequest {
  automationId: string;
  contactId: string;
  userId: string;
}

export interface StartedTestRun {
  id: string;
  account_id: string;
  automation_id: string;
  contact_id: string;
  version: number;
  tester_email: string;
}

export async function startTestRun(db: Db, a: TestRunRequest): Promise<StartedTestRun> {
  return db.transaction(async (tx) => {
    const auto = await automationForTest(tx, a.automationId);
    if (!auto || auto.deleted) throw new Refusal(`no automation ${a.automationId}`);
    if (auto.published_version < 1) {
      throw new Refusal(`automation ${a.automationId} has never been published: a test run runs the published version, so publish it first`);
    }
    const user = await testerOf(tx, auto.account_id, a.userId);
    if (!user) throw new Refusal(`no user ${a.userId} in the automation's account`);
    const contact = await contactStateForTest(tx, auto.account_id, a.contactId);
    if (!contact || contact.archived) throw new Refusal(`no contact ${a.contactId} in the automation's account`);
    if (contact.erased) throw new Refusal(`contact ${a.contactId} was erased at their request`);
    const id = uuidv7();
    const who = user.name.trim() || user.email;
    await enqueueAutomationRun(tx, {
      accountId: auto.account_id,
      automationId: a.automationId,
      version: auto.published_version,
      startedBy: `Test by ${who}`,
      runs: [{ id, contactId: a.contactId }],
      testerEmail: user.email,
    });
    return { id, account_id: auto.account_id, automation_id: a.automationId, contact_id: a.contactId, version: auto.published_version, tester_email: user.email };
  });
}
