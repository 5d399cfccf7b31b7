// The builder's plain words for the server's enums (each enum is imported from src/domain, never
// retyped: a new value there fails the typecheck here until it has words). What starts an
// automation, re-enrollment and the filter's fields and operators are in
// components/automations/words.ts (the automation's page and the publish dialog say them too).
import { LIFECYCLE_STAGES, SMS_CONSENT } from '@domain/contact';
import { CONDITION_FIELDS } from '@domain/step-schemas';
import { durationWords as inWords } from '@domain/duration-words';
import type { OP_WORDS } from '../../components/automations/words';
export { TRIGGER_TYPES, triggerWords, REENROLL_WORDS, OP_WORDS, FIELD_WORDS } from '../../components/automations/words';

type Op = keyof typeof OP_WORDS;

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

/** "PT1H" → "1 hour", "P7D" → "1 week" (the presets' own words), "P5D" → "5 days" (any other duration). */
export function durationWords(iso: string): string {
  return WAIT_PRESETS.find(([d]) => d === iso)?.[1] ?? inWords(iso);
}
