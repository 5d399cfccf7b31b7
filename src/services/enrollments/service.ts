// Enrolling contacts through the API (spec: Enrollment rules). The trigger type does not matter
// and the Run-only-if filter is not applied; each id is enrolled or skipped with a reason.
import type { Queryable } from '../../db/db.js';
import { admit, takesEnrollments, type SkipReason } from '../../domain/enrollment.js';
import { ApiError, found } from '../../domain/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { enqueueAutomationRun } from '../../queue/enqueue.js';
import { classifyContacts, lockAutomation, lockContactsForEnrollment } from '../../queue/enrollment-store.js';

export type { SkipReason };

export interface EnrollmentResult {
  automation_id: string;
  enrolled: number;
  runs: { id: string; contact_id: string }[];
  skipped: { contact_id: string; reason: SkipReason }[];
}

export interface EnrollInput {
  accountId: string;
  automationId: string;
  contactIds: string[];
  keyId: string;
  keyName: string;
  keyPrefix: string;
}

/** How run history names an API enrollment: the key's name and a truncated prefix. */
export function startedByKey(name: string, prefix: string): string {
  return `API key "${name}" (${prefix}…)`;
}

export async function enroll(tx: Queryable, input: EnrollInput): Promise<EnrollmentResult> {
  await lockContactsForEnrollment(tx, input.contactIds);
  const automation = found(await lockAutomation(tx, input.accountId, input.automationId), 'automation');
  if (!takesEnrollments(automation)) {
    throw new ApiError('automation_not_published', `The automation is ${automation.status === 'draft' ? 'a draft' : 'paused'}; nobody was enrolled.`);
  }
  const states = await classifyContacts(tx, input.accountId, input.automationId, automation.project_id, input.contactIds);
  const runs: EnrollmentResult['runs'] = [];
  const skipped: EnrollmentResult['skipped'] = [];
  for (const { contactId, reason } of admit(input.contactIds, states, automation)) {
    if (reason) skipped.push({ contact_id: contactId, reason });
    else runs.push({ id: uuidv7(), contact_id: contactId });
  }
  await enqueueAutomationRun(tx, {
    accountId: input.accountId,
    automationId: input.automationId,
    version: automation.published_version,
    startedBy: startedByKey(input.keyName, input.keyPrefix),
    keyId: input.keyId,
    runs: runs.map((r) => ({ id: r.id, contactId: r.contact_id })),
  });
  return { automation_id: input.automationId, enrolled: runs.length, runs, skipped };
}
