// Contacts in the hub: the list (/v1's search and filters), a contact's page (its fields, flags,
// automation runs and messages in one request), create, edit and erase. Every rule is the
// services' (src/services/contacts): the hub cannot lift do-not-contact or an email opt-out any
// more than /v1 can (409 opt_out_locked), and erasure is `contacts erase`'s. Audit entries name
// the fields changed, never their values.
import { Type } from '@sinclair/typebox';
import { ApiError, notFound } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { DateTime, ListEnvelope, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { normaliseEmail } from '../../lib/email.js';
import { iso, isoOrNull } from '../../lib/time.js';
import { AUTOMATION_RUN_STATUSES } from '../../domain/automation.js';
import type { LiveContactRow } from '../../domain/contact.js';
import { Contact, contactsPage, CreateBody, ListContactsQuery, renderContact, UpdateBody } from '../../api/contacts/routes.js';
import { listContacts } from '../../api/contacts/store.js';
import { STATUS_LABELS } from '../../api/automation-runs/store.js';
import { recordAudit } from '../../services/audit/service.js';
import { eraseContact } from '../../services/contacts/erase.js';
import { checkedEmail, createContact, erasureHmacs, patchContact } from '../../services/contacts/service.js';
import { getContact } from '../../services/contacts/store.js';
import { actorOf, hubAccess, hubAuthOf, hubResponses, HUB_TAG } from '../kit.js';
import { HubMessage, renderMessage } from '../messages/render.js';
import { listMessages } from '../messages/store.js';
import { contactRuns, smsStopped } from './store.js';

/** How many runs and messages a contact's page shows; the rest are on Messages filtered by contact. */
const PAGE_ITEMS = 25;

const ContactRun = Type.Object(
  {
    id: Uuid,
    automation: Type.Object({ id: Uuid, name: Type.String() }),
    status: StringEnum(AUTOMATION_RUN_STATUSES),
    status_label: Type.String({ description: 'The status in the words Run history uses.' }),
    test: Type.Boolean(),
    version: Type.Integer(),
    started_at: DateTime,
    finished_at: Nullable(DateTime),
    next_at: Nullable(DateTime),
    error: Nullable(Type.String()),
  },
  { title: 'HubContactRun' },
);

const HubContactDetail = Type.Object(
  {
    contact: Contact,
    sms_stopped: Type.Boolean({ description: 'The person replied STOP to an SMS (only their reply START lifts it).' }),
    automation_runs: Type.Array(ContactRun, { description: `Its automation runs, newest first (at most ${PAGE_ITEMS}).` }),
    messages: Type.Array(HubMessage, { description: `Messages sent to it, newest first (at most ${PAGE_ITEMS}).` }),
    more_messages: Type.Boolean({ description: 'More messages than shown: see GET /hub/api/messages?contact_id=.' }),
  },
  { title: 'HubContactDetail' },
);

const EraseBody = Type.Object(
  { confirm: Type.String({ minLength: 1, maxLength: 400, description: "The contact's email address or its id, typed by the user." }) },
  { additionalProperties: false },
);
const Erased = Type.Object(
  { id: Uuid, erased: Type.Literal(true), runs_stopped: Type.Integer(), messages_deleted: Type.Integer() },
  { title: 'HubContactErased' },
);
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/** The typed confirmation names this contact: its id, or its address ignoring case and blanks. */
function confirms(c: LiveContactRow, typed: string): boolean {
  const t = typed.trim();
  if (t.toLowerCase() === c.id) return true;
  return c.email !== null && normaliseEmail(t) === normaliseEmail(c.email);
}

export function registerHubContactRoutes(hub: App, deps: AppDeps): void {
  const contacts = listByTime(deps.cursors, (r: LiveContactRow) => r.updated_at);

  hub.get(
    '/contacts',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubListContacts',
        summary: 'List contacts',
        description: "/v1's search and filters, most recently changed first.",
        querystring: ListContactsQuery,
        response: hubResponses('member', { 200: ListEnvelope(Contact, 'HubContactList') }),
      },
      config: hubAccess('member'),
    },
    async (request) => contactsPage(deps, contacts, request, request.query, hubAuthOf(request).accountId),
  );

  hub.get(
    '/contacts/:id',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubGetContact',
        summary: "A contact's page: fields, flags, automation runs and messages",
        params: IdParams,
        response: hubResponses('member', { 200: HubContactDetail }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const accountId = hubAuthOf(request).accountId;
      const id = request.params.id;
      const [row, stopped, runs, messages] = await Promise.all([
        getContact(deps.db, accountId, id),
        smsStopped(deps.db, accountId, id),
        contactRuns(deps.db, accountId, id, PAGE_ITEMS),
        listMessages(deps.db, accountId, { contactId: id }, { after: null, fetch: PAGE_ITEMS + 1 }),
      ]);
      if (!row) throw notFound('contact');
      return {
        contact: renderContact(row),
        sms_stopped: stopped ?? false,
        automation_runs: runs.map((r) => ({
          id: r.id,
          automation: { id: r.automation_id, name: r.automation_name },
          status: r.status,
          status_label: STATUS_LABELS[r.status],
          test: r.test,
          version: r.version,
          started_at: iso(r.started_at),
          finished_at: isoOrNull(r.finished_at),
          next_at: isoOrNull(r.next_at),
          error: r.error,
        })),
        messages: messages.slice(0, PAGE_ITEMS).map(renderMessage),
        more_messages: messages.length > PAGE_ITEMS,
      };
    },
  );

  hub.post(
    '/contacts',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubCreateContact',
        summary: 'Create a contact',
        description: "As /v1's createContact: published contact.created automations start for it.",
        body: CreateBody,
        response: hubResponses('member', { 201: Contact }),
      },
      config: hubAccess('member'),
    },
    async (request, reply) => {
      const auth = hubAuthOf(request);
      const email = checkedEmail(request.body.email);
      const hmacs = await erasureHmacs(deps.db, email.normalized);
      const row = await deps.db.transaction(async (tx) => {
        const created = await createContact(tx, auth.accountId, request.body, email, hmacs);
        await recordAudit(tx, { accountId: auth.accountId, actor: actorOf(auth), action: 'contact.created', objectKind: 'contact', objectId: created.id });
        return created;
      });
      return reply.code(201).send(renderContact(row));
    },
  );

  hub.patch(
    '/contacts/:id',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubUpdateContact',
        summary: 'Edit a contact',
        description: "As /v1's updateContact: do_not_contact and email_opt_out, once true, cannot be set back (409 opt_out_locked).",
        params: IdParams,
        body: UpdateBody,
        response: hubResponses('member', { 200: Contact }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      const body = request.body;
      let email = null;
      if (body.email !== undefined) {
        const e = checkedEmail(body.email);
        email = { ...e, hmacs: await erasureHmacs(deps.db, e.normalized) };
      }
      const row = await patchContact(deps.db, auth.accountId, request.params.id, body, email, actorOf(auth));
      if (!row) throw notFound('contact');
      return renderContact(row);
    },
  );

  hub.post(
    '/contacts/:id/erase',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubEraseContact',
        summary: 'Erase a contact at their request',
        description:
          "As `contacts erase`: the address kept only as an HMAC, personal fields cleared, running automation runs stopped, messages deleted. " +
          "confirm must be the contact's email or id (422 invalid_field otherwise).",
        params: IdParams,
        body: EraseBody,
        response: hubResponses('member', { 200: Erased }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      const id = request.params.id;
      const row = await getContact(deps.db, auth.accountId, id);
      if (!row) throw notFound('contact');
      if (!confirms(row, request.body.confirm)) {
        throw new ApiError('invalid_field', "confirm must be the contact's email address or its id.", { param: 'confirm' });
      }
      const out = await eraseContact(deps.db, auth.accountId, id, actorOf(auth));
      // Erased or archived by someone else between the read and the erasure: it is gone all the same.
      if (out.status !== 'erased') throw notFound('contact');
      return { id, erased: true as const, runs_stopped: out.runsStopped, messages_deleted: out.messagesDeleted };
    },
  );
}
