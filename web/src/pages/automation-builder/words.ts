// The builder's plain words for the server's enums (each enum is imported from src/domain, never
// retyped: a new value there fails the typecheck here until it has words). What starts an
// automation is in components/automations/words.ts (the automation's page says it too).
import type { REENROLL_RULES } from '@domain/automation';
import { LIFECYCLE_STAGES, SMS_CONSENT } from '@domain/contact';
import { CONDITION_FIELDS, CONDITION_OPS } from '@domain/step-schemas';
export { TRIGGER_TYPES, triggerWords } from '../../components/automations/words';

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

/** The operators offered in the select (one name per meaning); an alias already saved stays selectable. */
export const MAIN_OPS: readonly Op[] = ['eq', 'neq', 'in', 'not_in', 'contains', 'not_contains', 'exists', 'not_exists'];

/** Operators that take no value, and those that take a list. */
export const NO_VALUE_OPS: ReadonlySet<string> = new Set<Op>(['exists', 'is_set', 'not_exists', 'is_empty']);
export const LIST_OPS: ReadonlySet<string> = new Set<Op>(['in', 'not_in']);

/** The contact's yes/no fields: their value is chosen, not typed. */
export const BOOLEAN_FIELDS: ReadonlySet<string> = new Set<(typeof CONDITION_FIELDS)[number]>(['do_not_contact', 'email_opt_out', 'sms_stopped']);

/** Fields with a fixed set of values: chosen from a list, not typed. */
export const FIELD_CHOICES: Partial<Record<(typeof CONDITION_FIELDS)[number], readonly string[]>> = {
  lifecycle_stage: LIFECYCLE_STAGES,
  sms_consent: SMS_CONSENT,
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

/** A wait's friendly presets (ISO 8601 durations, as config.duration takes them). */
export const WAIT_PRESETS = [
  ['PT1M', '1 minute'],
  ['PT5M', '5 minutes'],
  ['PT15M', '15 minutes'],
  ['PT1H', '1 hour'],
  ['PT6H', '6 hours'],
  ['P1D', '1 day'],
  ['P2D', '2 days'],
  ['P3D', '3 days'],
  ['P7D', '1 week'],
  ['P14D', '2 weeks'],
  ['P30D', '30 days'],
] as const;

/** "PT1H" → "1 hour" for the presets; other durations as written. */
export function durationWords(iso: string): string {
  return WAIT_PRESETS.find(([d]) => d === iso)?.[1] ?? iso;
}
