// A contact as the API and the hub show it, and one page of the contact list: /v1's listContacts
// and the hub's contact list are this one read.
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import type { Lister, Page } from '../../http/list.js';
import { normaliseEmail } from '../../lib/email.js';
import { iso } from '../../lib/time.js';
import type { LiveContactRow } from '../../domain/contact.js';
import type { Contact, ListContactsQuery } from './schemas.js';
import { listContacts } from '../../services/contacts/store.js';

export function renderContact(r: LiveContactRow): Contact {
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

/** One page of the account's contacts for the list query (search, filters, cursor). */
export async function contactsPage(
  deps: Pick<AppDeps, 'db'>,
  contacts: Lister<LiveContactRow>,
  request: FastifyRequest,
  q: ListContactsQuery,
  accountId: string,
): Promise<Page<Contact>> {
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
