// Contacts in the hub: the list (/v1's search and filters), a contact's page (its fields and
// flags; what it went through is its timeline, paged), create, edit and erase. Every rule is the
// services' (src/services/contacts): the hub cannot lift do-not-contact or an email opt-out any
// more than /v1 can (409 opt_out_locked), and erasure is `contacts erase`'s. Audit entries name
// the fields changed, never their values.
import { ApiError, found, notFound } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { normaliseEmail } from '../../lib/email.js';
import type { LiveContactRow } from '../../domain/contact.js';
import { contactsPage, renderContact } from '../../api/contacts/read.js';
import { Contact, CreateBody, ListContactsQuery, UpdateBody } from '../../api/contacts/schemas.js';
import { recordAudit } from '../../services/audit/service.js';
import { eraseContact } from '../../services/contacts/erase.js';
import { checkedEmail, createContact, erasureHmacs, patchContact } from '../../services/contacts/service.js';
import { getContact, smsStopped } from '../../services/contacts/store.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { contactTimeline, type TimelineRow } from './read-store.js';
import { EraseBody, Erased, HubContactDetail, IdParams, TimelineEntry, TimelineQuery } from './schemas.js';
import { renderTimelineEntry } from './timeline.js';

/** The typed confirmation names this contact: its id, or its address ignoring case and blanks. */
function confirms(c: LiveContactRow, typed: string): boolean {
  const t = typed.trim();
  if (t.toLowerCase() === c.id) return true;
  return c.email !== null && normaliseEmail(t) === normaliseEmail(c.email);
}

export function registerHubContactRoutes(hub: App, deps: AppDeps): void {
  const contacts = listByTime(deps.cursors, (r: LiveContactRow) => r.updated_at);

  hub.get('/contacts', hubRoute('member', {
    operationId: 'hubListContacts',
    summary: 'List contacts',
    description: "/v1's search and filters, most recently changed first.",
    querystring: ListContactsQuery,
    response: { 200: ListEnvelope(Contact, 'HubContactList') },
  }), async (request) => contactsPage(deps, contacts, request, request.query, hubAuthOf(request).accountId));

  hub.get('/contacts/:id', hubRoute('member', {
    operationId: 'hubGetContact',
    summary: "A contact's page: its fields and flags (what it went through: its timeline)",
    params: IdParams,
    response: { 200: HubContactDetail },
  }), async (request) => {
    const accountId = hubAuthOf(request).accountId;
    const id = request.params.id;
    const [row, stopped] = await Promise.all([getContact(deps.db, accountId, id), smsStopped(deps.db, accountId, id)]);
    if (!row) throw notFound('contact');
    return { contact: renderContact(row), sms_stopped: stopped ?? false };
  });

  const timeline = listByTime(deps.cursors, (r: TimelineRow) => r.at);
  hub.get('/contacts/:id/timeline', hubRoute('member', {
    operationId: 'hubContactTimeline',
    summary: "A contact's timeline",
    description: 'Its automation runs, the messages they sent and the changes recorded about it, newest first, in words; paged.',
    params: IdParams,
    querystring: TimelineQuery,
    response: { 200: ListEnvelope(TimelineEntry, 'HubContactTimeline') },
  }), async (request) => {
    const accountId = hubAuthOf(request).accountId;
    const id = request.params.id;
    const page = timeline.start(request, request.query, { id }, accountId);
    found(await getContact(deps.db, accountId, id), 'contact');
    return timeline.page(page, await contactTimeline(deps.db, accountId, id, page), renderTimelineEntry);
  });

  hub.post('/contacts', hubRoute('member', {
    operationId: 'hubCreateContact',
    summary: 'Create a contact',
    description: "As /v1's createContact: published contact.created automations start for it.",
    body: CreateBody,
    response: { 201: Contact },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const email = checkedEmail(request.body.email);
    const hmacs = await erasureHmacs(deps.db, email.normalized);
    const row = await deps.db.transaction(async (tx) => {
      const created = await createContact(tx, auth.accountId, request.body, email, hmacs);
      await recordAudit(tx, { accountId: auth.accountId, actor: actorOf(auth), action: 'contact.created', objectKind: 'contact', objectId: created.id });
      return created;
    });
    return reply.code(201).send(renderContact(row));
  });

  hub.patch('/contacts/:id', hubRoute('member', {
    operationId: 'hubUpdateContact',
    summary: 'Edit a contact',
    description: "As /v1's updateContact: do_not_contact and email_opt_out, once true, cannot be set back (409 opt_out_locked).",
    params: IdParams,
    body: UpdateBody,
    response: { 200: Contact },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const body = request.body;
    let email = null;
    if (body.email !== undefined) {
      const e = checkedEmail(body.email);
      email = { ...e, hmacs: await erasureHmacs(deps.db, e.normalized) };
    }
    return renderContact(found(await patchContact(deps.db, auth.accountId, request.params.id, body, email, actorOf(auth)), 'contact'));
  });

  hub.post('/contacts/:id/erase', hubRoute('member', {
    operationId: 'hubEraseContact',
    summary: 'Erase a contact at their request',
    description:
      "As `contacts erase`: the address kept only as an HMAC, personal fields cleared, running automation runs stopped, messages deleted. " +
      "confirm must be the contact's email or id (422 invalid_field otherwise).",
    params: IdParams,
    body: EraseBody,
    response: { 200: Erased },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const id = request.params.id;
    const row = found(await getContact(deps.db, auth.accountId, id), 'contact');
    if (!confirms(row, request.body.confirm)) {
      throw new ApiError('invalid_field', "confirm must be the contact's email address or its id.", { param: 'confirm' });
    }
    const out = await eraseContact(deps.db, auth.accountId, id, actorOf(auth));
    // Erased or archived by someone else between the read and the erasure: it is gone all the same.
    if (out.status !== 'erased') throw notFound('contact');
    return { id, erased: true as const, runs_stopped: out.runsStopped, messages_deleted: out.messagesDeleted };
  });
}
