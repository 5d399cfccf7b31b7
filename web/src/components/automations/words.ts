// What starts an automation and the Run-only-if filter, in words, for the builder, the publish
// dialog and the automation's page (the enum is
// imported from src/domain, never retyped: a new trigger type fails the typecheck here until it has words).
import { TRIGGER_TYPES as DOMAIN_TRIGGER_TYPES, type REENROLL_RULES, type TriggerType } from '@domain/automation';
import type { CONDITION_FIELDS, CONDITION_OPS } from '@domain/step-schemas';

/** Each trigger type (the domain's TRIGGER_TYPES, in its order): how the builder says it, and its default label in run history. */
const TRIGGER_WORDS: Record<TriggerType, readonly [string, string]> = {
  'contact.created': ['A contact is created', 'Contact is created'],
  webhook: ['A webhook is called', 'Webhook is called'],
  schedule: ['On a schedule', 'On a schedule'],
  manual: ['Only when enrolled (API or by hand)', 'Enrolled'],
};

/** [type, words, default label] for the trigger select. */
export const TRIGGER_TYPES = DOMAIN_TRIGGER_TYPES.map((t) => [t, ...TRIGGER_WORDS[t]] as const);

export function triggerWords(type: string | null): string {
  if (type === null) return 'No trigger yet';
  return TRIGGER_TYPES.find(([t]) => t === type)?.[1] ?? type;
}

export const REENROLL_WORDS: Record<(typeof REENROLL_RULES)[number], string> = {
  never: 'Never (once per contact)',
  always: 'Each time the trigger fires',
  after_exit: 'After their last run ended',
};

type Op = (typeof CONDITION_OPS)[number];

/** Each operator in words; the aliases (ne, is_set, is_empty) read like the names they stand for. */
export const OP_WORDS: Record<Op, string> = {
  eq: 'is',
  ne: 'is not',
  neq: 'is not',
  in: 'is one of',
  not_in: 'is not one of',
  contains: 'contains',
  not_contains: 'does not contain',
  exists: 'is set',
  is_set: 'is set',
  not_exists: 'is empty',
  is_empty: 'is empty',
};

export const FIELD_WORDS: Record<(typeof CONDITION_FIELDS)[number], string> = {
  email: 'Email',
  first_name: 'First name',
  last_name: 'Last name',
  phone: 'Phone',
  lifecycle_stage: 'Lifecycle stage',
  tags: 'Tags',
  do_not_contact: 'Do not contact',
  email_opt_out: 'Opted out of email',
  sms_consent: 'SMS consent',
  sms_stopped: 'Replied STOP to texts',
};

/** A condition (the Run-only-if filter, a branch) as a phrase: “Tags contains "inactive"”. */
export function conditionWords(c: { field?: unknown; op?: unknown; value?: unknown } | null | undefined): string {
  if (!c || typeof c.field !== 'string') return 'none';
  const field = FIELD_WORDS[c.field as keyof typeof FIELD_WORDS] ?? c.field;
  const op = OP_WORDS[(typeof c.op === 'string' ? c.op : 'eq') as Op] ?? String(c.op);
  if (c.value === undefined || c.value === null) return `${field} ${op}`;
  const value = Array.isArray(c.value) ? c.value.map((v) => `"${String(v)}"`).join(', ') : `"${String(c.value)}"`;
  return `${field} ${op} ${value}`;
}
