// Starting automation runs from triggers (schedule, webhook; contact.created once contacts can be
// created): unlike API enrollment, the Run-only-if filter applies, and a contact it does not match
// gets a `skipped` run ("Did not meet the Run only if criteria") that never executes. Who is
// admitted at all is the one rule of domain/enrollment.ts, with /v1's skip reasons.
import type { Queryable } from '../../db/db.js';
import { skipReason, takesEnrollments, type SkipReason } from '../../domain/enrollment.js';
import { classifyContacts, lockAutomation, lockContactsForEnrollment } from '../../queue/enrollment-store.js';
import { enqueueAutomationRun } from '../../queue/enqueue.js';
import { uuidv7 } from '../../lib/ids.js';
import { evaluateCondition } from './conditions.js';
import { readContact } from './store.js';
import { publishedFilter } from './trigger-store.js';

export interface TriggerStart {
  accountId: string;
  automationId: string;
  /** null for a run with no contact (a schedule): its contact steps skip. */
  contactId: string | null;
  /** How run history names the start, e.g. "Schedule" or "Webhook". */
  startedBy: string;
}

export type TriggerOutcome =
  | { status: 'started' | 'skipped'; runId: string }
  /** Not started: the automation takes no contacts now, or the contact is skipped as /v1's enrollments skip it. */
  | { status: 'ignored'; reason: 'not_published' | SkipReason };

export async function startTriggeredRun(tx: Queryable, s: TriggerStart): Promise<TriggerOutcome> {
  if (s.contactId) await lockContactsForEnrollment(tx, [s.contactId]);
  const automation = await lockAutomation(tx, s.accountId, s.automationId);
  if (!automation || !takesEnrollments(automation)) return { status: 'ignored', reason: 'not_published' };
  let contact = null;
  if (s.contactId) {
    const states = await classifyContacts(tx, s.accountId, s.automationId, automation.project_id, [s.contactId]);
    const reason = skipReason(states.get(s.contactId), automation);
    if (reason) return { status: 'ignored', reason };
    // Admitted: read in full for the Run-only-if filter.
    contact = await readContact(tx, s.accountId, s.contactId, false);
  }
  const filter = await publishedFilter(tx, s.accountId, s.automationId, automation.published_version);
  const verdict = filter ? evaluateCondition(filter, contact) : { result: true };
  const matches = 'result' in verdict && verdict.result;
  const runId = uuidv7();
  await enqueueAutomationRun(tx, {
    accountId: s.accountId,
    automationId: s.automationId,
    version: automation.published_version,
    startedBy: s.startedBy,
    runs: [{ id: runId, contactId: s.contactId }],
    skipped: !matches,
    error: 'error' in verdict ? `Run only if filter could not be applied: ${verdict.error}` : null,
  });
  return { status: matches ? 'started' : 'skipped', runId };
}
