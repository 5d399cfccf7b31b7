// What starts an automation, in words, for the builder and the automation's page (the enum is
// imported from src/domain, never retyped: a new trigger type fails the typecheck here until it has words).
import { TRIGGER_TYPES as DOMAIN_TRIGGER_TYPES, type TriggerType } from '@domain/automation';

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
