// Contacts: GET /contacts, GET /contacts/{id}, POST /contacts, PATCH /contacts/{id}. The route
// file is the contract; the rules live in service.ts, the SQL in store.ts.
import { Type, type Static } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../domain/errors.js';
import { listByTime, type Lister, type Page } from '../../http/list.js';
import type { FastifyRequest } from 'fastify';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { DateTime, Line, ListEnvelope, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { idempotent } from '../../idempotency/index.js';
import { EMAIL_MAX_LENGTH, normaliseEmail } from '../../lib/email.js';
import { iso } from '../../lib/time.js';
import { checkedEmail, createContact, erasureHmacs, patchContact, type ContactInput } from '../../services/contacts/service.js';
import { getContact } from '../../services/contacts/store.js';
import { LIFECYCLE_STAGES, SMS_CONSENT, type LiveContactRow } from '../../domain/contact.js';
import { listContacts } from './store.js';

const LifecycleStage = StringEnum(LIFECYCLE_STAGES);
const SmsConsent = StringEnum(SMS_CONSENT, { description: 'granted, none (not asked or not recorded), or revoked.' });
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
type ContactOut = Static<typeof Contact>;

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
export const UpdateBody = Type.Object(
  { email: Type.Optional(Email), ...BODY_FIELDS, assignee: Type.Optional(Nullable(Type.String({ format: 'uuid', description: 'A user of the account, or null.' }))) },
  { additionalProperties: false, examples: [{ lifecycle_stage: 'customer', phone: null, email_opt_out: true }] },
);

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
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
const CreateHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'Optional: 8 to 64 printable characters without spaces.' })),
});

export function renderContact(r: LiveContactRow): ContactOut {
  return {
    id: r.id,
    email: r.email,
    first_name: r.first_name,
    last_name: r.last_name,
    phone: r.phone,
    lifecycle_stage: r.lifecycle_stage,
    do_not_contact: r.do_not_contact,
    email_opt_out: r.email_opt_out,
    sms_consent: r.sms_consent,
    tags: r.tags,
    assignee: r.assignee,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/**
 * One page of the account's contacts for the list query (search, filters, cursor): /v1's
 * listContacts and the hub's contact list are this one read.
 */
export async function contactsPage(
  deps: Pick<AppDeps, 'db'>,
  contacts: Lister<LiveContactRow>,
  request: FastifyRequest,
  q: Static<typeof ListContactsQuery>,
  accountId: string,
): Promise<Page<Static<typeof Contact>>> {
  const filters = {
    q: q.q,
    email: q.email === undefined ? undefined : normaliseEmail(q.email),
    lifecycle_stage: q.lifecycle_stage,
    changed_since: q.changed_since === undefined ? undefined : iso(q.changed_since),
  };
  const page = contacts.start(request, q, filters, accountId);
  const rows = await listContacts(
    deps.db,
    page.accountId,
    {
      q: filters.q,
      emailNormalized: filters.email,
      lifecycleStage: filters.lifecycle_stage,
      changedSince: filters.changed_since === undefined ? undefined : new Date(filters.changed_since),
    },
    page,
  );
  return contacts.page(page, rows, renderContact);
}

export function registerContactRoutes(app: App, deps: AppDeps): void {
  const contacts = listByTime(deps.cursors, (r: LiveContactRow) => r.updated_at);
  app.get(
    '/contacts',
    {
      config: meta({ scope: 'contacts:read', write: false }),
      schema: {
        operationId: 'listContacts',
        summary: 'List contacts',
        description: 'Contacts of the account, most recently changed first; archived and erased contacts are never listed.',
        tags: ['Contacts'],
        querystring: ListContactsQuery,
        response: v1Responses({ 200: ListEnvelope(Contact, 'ContactList') }),
      },
    },
    async (request) => contactsPage(deps, contacts, request, request.query, authOf(request).accountId),
  );

  app.get(
    '/contacts/:id',
    {
      config: meta({ scope: 'contacts:read', write: false }),
      schema: {
        operationId: 'getContact',
        summary: 'Get a contact',
        tags: ['Contacts'],
        params: IdParams,
        response: v1Responses({ 200: Contact }),
      },
    },
    async (request) => {
      const row = await getContact(deps.db, authOf(request).accountId, request.params.id);
      if (!row) throw notFound('contact');
      return renderContact(row);
    },
  );

  app.post(
    '/contacts',
    {
      config: meta({ scope: 'contacts:write', write: true }),
      schema: {
        operationId: 'createContact',
        summary: 'Create a contact',
        description:
          'Creates an unassigned contact and starts the published automations triggered by a new contact (this endpoint sends nothing ' +
          'itself). An address is never two contacts: a taken one gives 409 contact_exists with resource_id, an erased person’s ' +
          '409 contact_do_not_contact. Idempotency-Key is optional.',
        tags: ['Contacts'],
        headers: CreateHeaders,
        body: CreateBody,
        response: v1Responses({ 201: Contact }, [409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const email = checkedEmail(body.email);
      const hmacs = await erasureHmacs(deps.db, email.normalized);
      const accountId = authOf(request).accountId;
      return idempotent(
        request,
        reply,
        { db: deps.db, accountId, lockTimeoutMs: deps.config.idempotencyLockTimeoutMs, required: false },
        async (tx) => ({ status: 201, body: renderContact(await createContact(tx, accountId, body, email, hmacs)) }),
      );
    },
  );

  app.patch(
    '/contacts/:id',
    {
      config: meta({ scope: 'contacts:write', write: true }),
      schema: {
        operationId: 'updateContact',
        summary: 'Update a contact',
        description:
          'Only the fields sent change; null clears one (email cannot be cleared). do_not_contact and email_opt_out can be set to ' +
          'true but never back (409 opt_out_locked). A request that changes nothing leaves updated_at as it was. Takes no ' +
          'Idempotency-Key (one sent is ignored): repeating the same change gives the same result.',
        tags: ['Contacts'],
        params: IdParams,
        body: UpdateBody,
        response: v1Responses({ 200: Contact }, [409, 413, 415, 422]),
      },
    },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      const accountId = authOf(request).accountId;
      let email = null;
      if (body.email !== undefined) {
        const e = checkedEmail(body.email);
        email = { ...e, hmacs: await erasureHmacs(deps.db, e.normalized) };
      }
      const row = await patchContact(deps.db, accountId, id, body, email);
      if (!row) throw notFound('contact');
      return renderContact(row);
    },
  );
}
