// What each automation step type is and which settings it takes, declared once: publishing (and a
// test run of a draft) checks every step's config against these, the engine's steps read the same
// fields, and the hub's automation builder generates each step's settings form from them.
import { MAX_MAX_TOKENS, MAX_PROMPT } from './block-schemas.js';
import type { KindSchema } from './config-schema.js';
import { STEP_TYPES, type StepType } from './automation.js';
import { STEP_SETTABLE_FIELDS } from './contact.js';

/** The contact fields a branch condition (and a Run-only-if filter) may test. */
export const CONDITION_FIELDS = [
  'email', 'first_name', 'last_name', 'phone', 'lifecycle_stage', 'tags', 'do_not_contact', 'email_opt_out', 'sms_consent', 'sms_stopped',
] as const;

/** A condition's operators; `ne`, `is_set` and `is_empty` are other names of `neq`, `exists` and `not_exists`. */
export const CONDITION_OPS = ['eq', 'ne', 'neq', 'in', 'not_in', 'contains', 'not_contains', 'exists', 'is_set', 'not_exists', 'is_empty'] as const;

/**
 * What an email, text or AI prompt template may name (Mustache): the contact's fields, and the
 * outputs of earlier steps as {{steps.<step id>.text}}.
 */
export const TEMPLATE_FIELDS = ['first_name', 'last_name', 'name', 'email', 'phone', 'lifecycle_stage', 'tags'] as const;

export const MAX_EMAIL_SUBJECT = 998;
export const MAX_EMAIL_BODY = 100_000;
/** Ten segments of GSM text: longer texts are rarely delivered whole. */
export const MAX_SMS_BODY = 1_530;
export const MAX_TAG = 100;
export const MAX_FIELD_VALUE = 500;

export const STEP_SCHEMAS: Readonly<Record<StepType, KindSchema>> = {
  'email.send': {
    kind: 'email.send',
    label: 'Send email',
    description: 'Emails the contact (with an unsubscribe link); skipped when they opted out.',
    fields: [
      { name: 'subject', label: 'Subject', type: 'text', multiline: false, required: true, maxLength: MAX_EMAIL_SUBJECT, placeholders: 'contact' },
      { name: 'body', label: 'Body (HTML)', type: 'text', multiline: true, required: true, maxLength: MAX_EMAIL_BODY, placeholders: 'contact' },
    ],
  },
  'sms.send': {
    kind: 'sms.send',
    label: 'Send text message',
    description: 'Texts the contact; billed per segment, skipped without SMS consent or after STOP.',
    fields: [{ name: 'body', label: 'Text', type: 'text', multiline: true, required: true, maxLength: MAX_SMS_BODY, placeholders: 'contact' }],
  },
  wait: {
    kind: 'wait',
    label: 'Wait',
    description: 'Waits for a while, or until a date, before the next step.',
    fields: [
      { name: 'duration', label: 'For (ISO 8601 duration)', type: 'duration', required: false, help: 'Such as PT1M (a minute), PT2H or P1D.' },
      { name: 'until', label: 'Until (date and time)', type: 'datetime', required: false },
    ],
    oneOf: ['duration', 'until'],
  },
  'ai.write': {
    kind: 'ai.write',
    label: 'AI write',
    description: 'Asks the language model; later steps use its text as {{steps.<id>.text}}. Billed per token.',
    fields: [
      { name: 'prompt', label: 'Prompt', type: 'text', multiline: true, required: true, maxLength: MAX_PROMPT, placeholders: 'contact' },
      { name: 'max_tokens', label: 'Max tokens', type: 'integer', required: false, min: 1, max: MAX_MAX_TOKENS, default: 1_024 },
    ],
  },
  'notify.team': {
    kind: 'notify.team',
    label: 'Notify the team',
    description: "Emails every person of the account (the step's name is the subject when none is given).",
    fields: [
      { name: 'subject', label: 'Subject', type: 'text', multiline: false, required: false, maxLength: MAX_EMAIL_SUBJECT, placeholders: 'contact' },
      { name: 'body', label: 'Message', type: 'text', multiline: true, required: false, allowEmpty: true, maxLength: MAX_EMAIL_BODY, placeholders: 'contact' },
    ],
  },
  'task.create': {
    kind: 'task.create',
    label: 'Create task',
    description: "Adds a task to the project's work management (skipped when it has none).",
    fields: [
      { name: 'title', label: 'Title', type: 'text', multiline: false, required: false, maxLength: 500, placeholders: 'contact' },
      { name: 'description', label: 'Description', type: 'text', multiline: true, required: false, allowEmpty: true, maxLength: MAX_EMAIL_BODY, placeholders: 'contact' },
    ],
  },
  'tag.add': {
    kind: 'tag.add',
    label: 'Add tag',
    description: 'Tags the contact.',
    fields: [{ name: 'tag', label: 'Tag', type: 'text', multiline: false, required: true, maxLength: MAX_TAG }],
  },
  'field.set': {
    kind: 'field.set',
    label: 'Update contact',
    description: "Sets one of the contact's fields (empty clears it).",
    fields: [
      { name: 'field', label: 'Field', type: 'choice', required: true, options: STEP_SETTABLE_FIELDS },
      { name: 'value', label: 'Value', type: 'text', multiline: false, required: true, allowEmpty: true, nullable: true, maxLength: MAX_FIELD_VALUE, placeholders: 'contact' },
    ],
  },
  branch: {
    kind: 'branch',
    label: 'Condition',
    description: 'Goes one way (yes) or the other (no) on a contact field.',
    fields: [
      { name: 'field', label: 'Contact field', type: 'choice', required: true, options: CONDITION_FIELDS },
      { name: 'op', label: 'Test', type: 'choice', required: false, options: CONDITION_OPS },
      { name: 'value', label: 'Value', type: 'json', required: false, help: 'A list for in and not_in.' },
    ],
  },
  end: {
    kind: 'end',
    label: 'End',
    description: "Ends the contact's run here.",
    fields: [],
  },
};

for (const t of STEP_TYPES) if (STEP_SCHEMAS[t]?.kind !== t) throw new Error(`step type ${t} has no schema`);
