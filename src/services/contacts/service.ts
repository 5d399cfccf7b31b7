// Contacts: the rules of creating and updating (docs/architecture.md §12.9, spec "Contacts"). One
// address is never two contacts (the unique index decides, also under concurrency); an erased
// person's address is refused; the API never lifts a do-not-contact flag or an email opt-out; a
// change that changes nothing leaves updated_at alone, so changed_since syncs do not loop.
import type { Db, Queryable } from '../../db/db.js';
import { fireContactCreated } from '../../engine/automations/contact-created.js';
import { ApiError } from '../../domain/errors.js';
import { checkEmail, normaliseEmail } from '../../lib/email.js';
import { uuidv7 } from '../../lib/ids.js';
import { erasedEmailHmac, erasureHmacs } from '../../secrets/one-way.js';
import { recordAudit, type Actor } from '../audit/service.js';
import type { LifecycleStage, LiveContactRow, SmsConsent } from '../../domain/contact.js';
import {
  contactIdByEmail,
  getContact,
  insertContact,
  insertContactRows,
  insertErasedAddresses,
  isErasedAddress,
  updateContact,
  userInAccount,
  type ContactLoad,
  type ContactValues,
} from './store.js';

/** A new address as the caller checked it (checkedEmail) with its erasure HMACs (erasureHmacs). */
export interface CheckedEmail {
  email: string;
  normalized: string;
  hmacs: string[];
}

/** A request body's fields; null clears (see CLEARED). */
export interface ContactInput {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  lifecycle_stage?: LifecycleStage | null;
  do_not_contact?: boolean | null;
  email_opt_out?: boolean | null;
  sms_consent?: SmsConsent | null;
  tags?: string[] | null;
  assignee?: string | null;
}

type Field = Exclude<keyof ContactValues, 'email' | 'email_normalized'>;

/** What null means per field: empty text and no assignee; flags off; no recorded SMS consent; no tags. */
const CLEARED: { [K in Field]: ContactValues[K] } = {
  first_name: null,
  last_name: null,
  phone: null,
  lifecycle_stage: null,
  do_not_contact: false,
  email_opt_out: false,
  sms_consent: 'none',
  tags: [],
  assignee: null,
};
const FIELDS = Object.keys(CLEARED) as Field[];

/** The email field checked and normalised: 422 invalid_field when it is not an address. */
export function checkedEmail(raw: string): { email: string; normalized: string } {
  const c = checkEmail(raw);
  if (!c.ok) throw new ApiError('invalid_field', `The field email is not an email address: ${c.problem}.`, { param: 'email' });
  return { email: c.email, normalized: c.normalized };
}

// The contact.created trigger, for a caller that creates contacts its own way (the fixture loader).
export { fireContactCreated };

// The HMACs callers compute before their transaction (the secret is read in its own statement).
export { erasureHmacs };

const erased = () =>
  new ApiError('contact_do_not_contact', 'This address belongs to someone erased at their request; it cannot be added or changed to.', {
    param: 'email',
  });
const taken = (id: string) =>
  new ApiError('contact_exists', 'Another contact in the account has this email address; resource_id is its id.', {
    param: 'email',
    resourceId: id,
  });

/**
 * Creates the contact and, in the same transaction, starts the account's published
 * contact.created automations for it (the endpoint itself sends nothing).
 */
export async function createContact(
  tx: Queryable,
  accountId: string,
  input: ContactInput,
  email: { email: string; normalized: string },
  hmacs: string[],
): Promise<LiveContactRow> {
  const values: ContactValues = { email: email.email, email_normalized: email.normalized, ...CLEARED };
  for (const f of FIELDS) if (input[f] !== undefined && input[f] !== null) (values as unknown as Record<string, unknown>)[f] = input[f];
  const id = uuidv7();
  // Nothing inserted and nobody holding the address: the holder let go of it between the two
  // statements (erased, or changed its email), so the insert is tried again.
  for (let attempt = 0; !(await insertContact(tx, accountId, id, values)); attempt++) {
    const holder = await contactIdByEmail(tx, accountId, email.normalized);
    if (holder) throw taken(holder);
    if (attempt === 2) throw new Error('contact insert kept conflicting with an address nobody holds');
  }
  // Checked after the insert: an erasure of this address that committed while the insert waited
  // for its row is visible to this later statement, so the two cannot both succeed.
  if (await isErasedAddress(tx, accountId, hmacs)) throw erased();
  await fireContactCreated(tx, accountId, id);
  return (await getContact(tx, accountId, id))!;
}

/** Whether the address (its HMACs under every kept erasure secret) belongs to someone erased. */
export function isErasedEmail(tx: Queryable, accountId: string, hmacs: string[]): Promise<boolean> {
  return isErasedAddress(tx, accountId, hmacs);
}

export interface WebhookContact {
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
}

/**
 * The contact holding this address in any state (a webhook never refuses a known person), or a
 * new one with the webhook's fields and a new record's defaults. The caller checks erasure first
 * and fires contact.created when `created`.
 */
export async function findOrCreateContact(tx: Queryable, accountId: string, c: WebhookContact): Promise<{ id: string; created: boolean }> {
  const normalized = normaliseEmail(c.email);
  const values: ContactValues = {
    ...CLEARED,
    email: c.email.trim(),
    email_normalized: normalized,
    first_name: c.first_name ?? null,
    last_name: c.last_name ?? null,
    phone: c.phone ?? null,
  };
  const id = uuidv7();
  if (await insertContact(tx, accountId, id, values)) return { id, created: true };
  return { id: (await contactIdByEmail(tx, accountId, normalized))!, created: false };
}

/** The fields of `input` whose value differs from the row's, as columns to write. */
function diff(row: LiveContactRow, input: ContactInput): Partial<ContactValues> {
  const out: Partial<ContactValues> = {};
  for (const f of FIELDS) {
    const sent = input[f];
    if (sent === undefined) continue;
    const next = sent === null ? CLEARED[f] : sent;
    if (JSON.stringify(next) !== JSON.stringify(row[f])) (out as Record<string, unknown>)[f] = next;
  }
  return out;
}

/** Refusals happen before any write, so a refused PATCH changes nothing. */
async function patchInTx(
  tx: Queryable,
  accountId: string,
  id: string,
  input: ContactInput,
  email: CheckedEmail | null,
  actor: Actor | undefined,
): Promise<LiveContactRow | null> {
  const row = await getContact(tx, accountId, id, true);
  if (!row) return null;
  for (const flag of ['do_not_contact', 'email_opt_out'] as const) {
    if (row[flag] && input[flag] !== undefined && input[flag] !== true) {
      throw new ApiError(
        'opt_out_locked',
        flag === 'email_opt_out'
          ? 'This contact opted out of email; the API cannot opt them back in.'
          : 'This contact is on do-not-contact; the API cannot lift it.',
        { param: flag },
      );
    }
  }
  const changes = diff(row, input);
  if (email && email.email !== row.email) {
    if (email.normalized !== normaliseEmail(row.email ?? '')) {
      if (await isErasedAddress(tx, accountId, email.hmacs)) throw erased();
      const holder = await contactIdByEmail(tx, accountId, email.normalized);
      if (holder && holder !== id) throw taken(holder);
    }
    changes.email = email.email;
    changes.email_normalized = email.normalized;
  }
  if (input.assignee && changes.assignee !== undefined && !(await userInAccount(tx, accountId, input.assignee))) {
    throw new ApiError('invalid_field', 'The field assignee is not a user of this account.', { param: 'assignee' });
  }
  if (Object.keys(changes).length === 0) return row;
  // The audit entry names the fields changed, never their values (they are the person's data).
  if (actor) {
    const fields = Object.keys(changes).filter((f) => f !== 'email_normalized').sort();
    await recordAudit(tx, { accountId, actor, action: 'contact.updated', objectKind: 'contact', objectId: id, detail: { fields } });
  }
  return updateContact(tx, accountId, id, changes);
}

/** A unique-index violation on the contacts' address: another transaction took it after our check. */
function isEmailTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === 'contacts_email' || /contacts_email/.test(e.message ?? ''));
}

/**
 * Applies a PATCH in one transaction under the contact's row lock: concurrent PATCHes queue on
 * it, so none is lost. Null when the contact is not found (404). With an actor (the hub), a
 * change that changes something is recorded in the audit log in the same transaction.
 */
export async function patchContact(
  db: Db,
  accountId: string,
  id: string,
  input: ContactInput,
  email: CheckedEmail | null,
  actor?: Actor,
): Promise<LiveContactRow | null> {
  // Ids are compared as text below: an upper-case spelling of the same user is no change.
  if (typeof input.assignee === 'string') input = { ...input, assignee: input.assignee.toLowerCase() };
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction((tx) => patchInTx(tx, accountId, id, input, email, actor));
    } catch (err) {
      // Another contact took the address between our check and our write (the transaction rolled
      // back): answer with its id, or try again if it has already let go of it.
      if (!email || !isEmailTaken(err)) throw err;
      const holder = await contactIdByEmail(db, accountId, email.normalized);
      if (holder) throw taken(holder);
      if (attempt === 2) throw err;
    }
  }
}

/** A contact as a fixture describes it: live, archived, or erased at the person's request. */
export interface ContactToLoad {
  id: string;
  values: ContactValues;
  archived: boolean;
  erased: boolean;
}

/**
 * Writes contacts in bulk (the fixture loader), all at `at`: an erased one keeps its row (runs
 * name it) and nothing about the person, and its address only as an HMAC under `erasureSecret`,
 * so the API refuses it as it refuses an address erased through it.
 */
export async function loadContacts(tx: Queryable, accountId: string, contacts: ContactToLoad[], erasureSecret: Buffer, at: Date): Promise<void> {
  const rows: ContactLoad[] = contacts.map((c) =>
    c.erased
      ? { id: c.id, ...CLEARED, email: null, email_normalized: null, archived_at: c.archived ? at : null, erased_at: at }
      : { id: c.id, ...c.values, archived_at: c.archived ? at : null, erased_at: null },
  );
  await insertContactRows(tx, accountId, rows);
  const erasedEmails = contacts.filter((c) => c.erased).map((c) => erasedEmailHmac(erasureSecret, c.values.email));
  await insertErasedAddresses(tx, accountId, erasedEmails, at);
}
