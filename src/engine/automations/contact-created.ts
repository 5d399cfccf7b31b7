// The `contact.created` trigger: a new contact (created through the API, by a webhook trigger, or
// by a fixture loaded with --fire-triggers) starts every published automation of the account whose
// running version is triggered by contact creation. It runs inside the transaction that creates
// the contact, so a refused or rolled-back create starts nothing. Each start goes through
// startTriggeredRun: the Run-only-if filter applies (a non-match is a `skipped` run), and the
// re-enrolment and per-project caps are respected as for any trigger.
import type { Queryable } from '../../db/db.js';
import { startTriggeredRun, type TriggerOutcome } from './triggers.js';
import { contactCreatedAutomations } from './trigger-store.js';

export const CONTACT_CREATED = 'contact.created';

export interface FiredRun {
  automationId: string;
  outcome: TriggerOutcome;
}

/**
 * Starts the account's published contact.created automations for one new contact. Automations are
 * taken in id order so that concurrent creates lock them in the same order (no deadlock).
 */
export async function fireContactCreated(tx: Queryable, accountId: string, contactId: string): Promise<FiredRun[]> {
  const automations = await contactCreatedAutomations(tx, accountId, CONTACT_CREATED);
  const out: FiredRun[] = [];
  for (const a of automations) {
    const outcome = await startTriggeredRun(tx, {
      accountId,
      automationId: a.id,
      contactId,
      startedBy: a.label || 'Contact is created',
    });
    out.push({ automationId: a.id, outcome });
  }
  return out;
}
