// Contacts: GET /contacts, GET /contacts/{id}, POST /contacts, PATCH /contacts/{id}. The route
// file is the contract; the rules live in service.ts, the SQL in store.ts.
import type { AppDeps } from '../../http/deps.js';
import { found } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { idempotent } from '../../idempotency/index.js';
import { checkedEmail, createContact, erasureHmacs, patchContact } from '../../services/contacts/service.js';
import { getContact } from '../../services/contacts/store.js';
import type { LiveContactRow } from '../../domain/contact.js';
import { contactsPage, renderContact } from './read.js';
import { Contact, CreateBody, CreateHeaders, IdParams, ListContactsQuery, UpdateBody } from './schemas.js';

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
      return renderContact(found(await getContact(deps.db, authOf(request).accountId, request.params.id), 'contact'));
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
      return renderContact(found(await patchContact(deps.db, accountId, id, body, email), 'contact'));
    },
  );
}
