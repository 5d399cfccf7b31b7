// The Contact resource's schemas: the contact, the create and update bodies, the list's query.
// Pure: TypeBox and src/domain only; the hub and the web app read the same shapes.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Line, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { EMAIL_MAX_LENGTH, LIFECYCLE_STAGES, SMS_CONSENT } from '../../domain/contact.js';

export const LifecycleStage = StringEnum(LIFECYCLE_STAGES);
export const SmsConsent = StringEnum(SMS_CONSENT, { description: 'granted, none (not asked or not recorded), or revoked.' });
const Text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description ? { description } : {}) });

export const Contact = Type.Object(
  {
    id: Uuid,
    email: Nullable(Text(EMAIL_MAX_LENGTH, 'Unique in the account, ignoring case. Never null for a contact created through the API.')),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    lifecycle_stage: Nullable(LifecycleStage),
    do_not_contact: Type.Boolean({ description: 'Once true, the API cannot set it back.' }),
    email_opt_out: Type.Boolean({ description: 'Once true, the API cannot opt the contact back in.' }),
    sms_consent: SmsConsent,
    tags: Type.Array(Type.String()),
    assignee: Nullable(Uuid),
    created_at: DateTime,
    updated_at: DateTime,
  },
  {
    title: 'Contact',
    examples: [
      {
        id: '0192f0c4-6a1e-7c3b-9a51-3f0e8d2b4c17',
        email: 'Ann.Lee@example.org',
        first_name: 'Ann',
        last_name: 'Lee',
        phone: '+1 555 0100',
        lifecycle_stage: 'lead',
        do_not_contact: false,
        email_opt_out: false,
        sms_consent: 'granted',
        tags: ['newsletter'],
        assignee: null,
        created_at: '2026-03-01T12:00:00.123Z',
        updated_at: '2026-03-02T08:30:00.000Z',
      },
    ],
  },
);
export type Contact = Static<typeof Contact>;

// Body fields, shared by create and update. null clears a field: text and assignee become null,
// do_not_contact and email_opt_out false (refused while true), sms_consent "none", tags [].
// Every text field is single-line (src/lib/text.ts); the email is checked by src/lib/email.ts.
const Phone = Line({ maxLength: 40, pattern: '^[+]?[0-9 ().-]*[0-9][0-9 ().-]*$', description: 'Digits, spaces, + ( ) . -' });
const Tag = Line({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Not blank; one line.' });
const Email = Text(
  EMAIL_MAX_LENGTH,
  'An email address; surrounding blanks are dropped, case is kept (and ignored for uniqueness). No invisible, control or bidi characters, ' +
    'nothing Unicode NFKC changes (such as fullwidth letters); an internationalised domain is accepted.',
);
const Name = Line({ maxLength: 200, description: 'One line of text.' });
const BODY_FIELDS = {
  first_name: Type.Optional(Nullable(Name)),
  last_name: Type.Optional(Nullable(Name)),
  phone: Type.Optional(Nullable(Phone)),
  lifecycle_stage: Type.Optional(Nullable(LifecycleStage)),
  do_not_contact: Type.Optional(Nullable(Type.Boolean({ description: 'true is allowed; false or null while true → 409 opt_out_locked.' }))),
  email_opt_out: Type.Optional(Nullable(Type.Boolean({ description: 'true is allowed; false or null while true → 409 opt_out_locked.' }))),
  sms_consent: Type.Optional(Nullable(SmsConsent)),
  tags: Type.Optional(Nullable(Type.Array(Tag, { maxItems: 100, uniqueItems: true }))),
};
// No assignee: contacts created through the API are unassigned (sending one is 422 unknown_field).
export const CreateBody = Type.Object(
  { email: Email, ...BODY_FIELDS },
  { additionalProperties: false, examples: [{ email: 'ann.lee@example.org', first_name: 'Ann', last_name: 'Lee', lifecycle_stage: 'lead', tags: ['newsletter'] }] },
);
export type CreateBody = Static<typeof CreateBody>;
export const UpdateBody = Type.Object(
  { email: Type.Optional(Email), ...BODY_FIELDS, assignee: Type.Optional(Nullable(Type.String({ format: 'uuid', description: 'A user of the account, or null.' }))) },
  { additionalProperties: false, examples: [{ lifecycle_stage: 'customer', phone: null, email_opt_out: true }] },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const ListContactsQuery = Type.Object(
  {
    ...ListQuery,
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '[\\p{L}\\p{N}]',
        description: 'Words (split on blanks and punctuation) matched against first name, last name and email; every word must begin a word of the contact, ignoring case.',
      }),
    ),
    email: Type.Optional(Type.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH, description: 'Exact address, ignoring case and surrounding blanks.' })),
    lifecycle_stage: Type.Optional(LifecycleStage),
    changed_since: Type.Optional(Type.String({ format: 'date-time', description: 'Contacts changed at or after this time.' })),
  },
  { additionalProperties: false },
);
export type ListContactsQuery = Static<typeof ListContactsQuery>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const CreateHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Optional: 8 to 64 printable characters without spaces.' })),
});
