// Admission to an automation: may this contact start a run of it now? One rule, one set of reason
// names (the spec's skip reasons, api-v1.md "Enroll contacts"), for the API's enrollments
// (src/services/enrollments) and the triggers (src/engine/automations/triggers.ts: schedule,
// webhook, contact.created) alike. Pure: the facts come from queue/enrollment-store.ts, read under
// the locks taken there.
import type { AutomationStatus, ReenrollRule } from './automation.js';

/** Why a contact is not enrolled; /v1 answers them as `skipped[].reason`, so the names are fixed. */
export const SKIP_REASONS = ['not_found', 'erased', 'already_enrolled', 'enrolled_before', 'too_many_automations'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What the store knows of one contact against one automation. */
export interface ContactState {
  id: string;
  found: boolean;
  archived: boolean;
  erased: boolean;
  /** Running or waiting in this automation now. */
  active_here: boolean;
  /** Has been through this automation before (test runs and filter-skipped deliveries left out). */
  before_here: boolean;
  /** Automations of this project the contact is running or waiting in now. */
  active_in_project: number;
}

/** The automation's side of the rule: its running version's re-enrollment and its project's cap. */
export interface AdmissionRules {
  status: AutomationStatus;
  reenroll: ReenrollRule;
  max_per_contact: number;
}

/** Only a published automation takes contacts (a draft has nothing to run; a paused one is held). */
export const takesEnrollments = (a: Pick<AdmissionRules, 'status'>): boolean => a.status === 'published';

/** Why `s` may not be enrolled in the automation now, in the order the reasons are checked; null: admitted. */
export function skipReason(s: ContactState | undefined, a: AdmissionRules): SkipReason | null {
  if (!s || !s.found || s.archived) return 'not_found';
  if (s.erased) return 'erased';
  if (s.active_here) return 'already_enrolled';
  if (a.reenroll === 'never' && s.before_here) return 'enrolled_before';
  if (s.active_in_project >= a.max_per_contact) return 'too_many_automations';
  return null;
}

/**
 * Each id of a request admitted or skipped, in the request's order. An id given twice is decided
 * once: the later copy repeats a skip's reason, or is already_enrolled when the first copy got
 * the run (its state was read before either was enrolled).
 */
export function admit(contactIds: readonly string[], states: ReadonlyMap<string, ContactState>, a: AdmissionRules): { contactId: string; reason: SkipReason | null }[] {
  const decided = new Map<string, SkipReason | null>();
  return contactIds.map((contactId) => {
    const earlier = decided.get(contactId);
    if (earlier !== undefined) return { contactId, reason: earlier ?? 'already_enrolled' };
    const reason = skipReason(states.get(contactId), a);
    decided.set(contactId, reason);
    return { contactId, reason };
  });
}
