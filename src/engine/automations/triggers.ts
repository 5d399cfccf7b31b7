// Starting automation runs from triggers (schedule, webhook; contact.created once contacts can be
// created): unlike API enrollment, the Run-only-if filter applies, and a contact it does not match
// gets a `skipped` run ("Did not meet the Run only if criteria") that never executes.
import type { Queryable } from '../../db/db.js';
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
  | { status: 'ignored'; reason: 'not_published' | 'contact_unavailable' | 'already_enrolled' | 'enrolled_before' | 'too_many_automations' };

export async function startTriggeredRun(tx: Queryable, s: TriggerStart): Promise<TriggerOutcome> {
  if (s.contactId) await lockContactsForEnrollment(tx, [s.contactId]);
  const automation = await lockAutomation(tx, s.accountId, s.automationId);
  if (!automation || automation.status !== 'published') return { status: 'ignored', reason: 'not_published' };
  let contact = null;
  if (s.contactId) {
    contact = await readContact(tx, s.accountId, s.contactId, false);
    if (!contact || contact.archived_at || contact.erased_at) return { status: 'ignored', reason: 'contact_unavailable' };
    const state = (await classifyContacts(tx, s.accountId, s.automationId, automation.project_id, [s.contactId])).get(s.contactId)!;
    if (state.active_here) return { status: 'ignored', reason: 'already_enrolled' };
    if (automation.reenroll === 'never' && state.before_here) return { status: 'ignored', reason: 'enrolled_before' };
    if (state.active_in_project >= automation.max_per_contact) return { status: 'ignored', reason: 'too_many_automations' };
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
