// Contacts: the one home of their SQL, for the API, the webhook triggers, the CLI and the hub:
// reading a contact, the list (search and filters), the STOP flag, and creating, changing and
// erasing one. Only live contacts (not archived, not erased) are ever read or changed through the
// API; the unique contacts_email index decides who holds an address. Lists walk (account_id,
// [lifecycle_stage,] updated_at desc, id desc) indexes; `q` uses the GIN index of word prefixes
// (migration 0011), `email` the unique contacts_email.
import { insertRows, type Columns } from '../../db/bulk-insert.js';
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import { sqlList } from '../../db/sql-list.js';
import { oneRow } from '../../db/rows.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES } from '../../domain/automation.js';
import type { LifecycleStage, LiveContactRow } from '../../domain/contact.js';

const ACTIVE_AUTOMATION_RUNS = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);

/** The columns the API writes; email_normalized always moves with email. */
export type ContactValues = Omit<LiveContactRow, 'id' | 'email' | 'created_at' | 'updated_at'> & {
  email: string;
  email_normalized: string;
};

export const CONTACT_COLUMNS = `c.id, c.email, c.first_name, c.last_name, c.phone, c.lifecycle_stage, c.do_not_contact, c.email_opt_out,
                 c.sms_consent, c.tags, c.assignee, c.created_at, c.updated_at`;
export const LIVE_CONTACT = 'c.archived_at is null and c.erased_at is null';

/** A live contact, or null (unknown, another account's, archived or erased). `lock` takes the row for an update. */
export async function getContact(db: Queryable, accountId: string, id: string, lock = false): Promise<LiveContactRow | null> {
  const rows = await db.query<LiveContactRow>(
    `select ${CONTACT_COLUMNS} from contacts c where c.account_id = $1 and c.id = $2 and ${LIVE_CONTACT}${lock ? ' for no key update' : ''}`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export interface ContactFilters {
  q?: string;
  emailNormalized?: string;
  lifecycleStage?: LifecycleStage;
  changedSince?: Date;
}

const ORDER = new KeysetOrder('c.updated_at', 'c.id', 'desc');

// The index finds candidates by exact word prefixes (the first word-for-word as indexed); the
// second condition is the rule itself, also for words over the index's 32 characters.
const matchesWords = (p: string) =>
  `switchboard_search_prefixes(c.search) @@ switchboard_prefix_query($1, ${p}) and c.search @@ switchboard_contact_query($1, ${p})`;

export async function listContacts(db: Queryable, accountId: string, f: ContactFilters, page: KeysetPage): Promise<LiveContactRow[]> {
  const w = new ListSql([accountId], ['c.account_id = $1', LIVE_CONTACT])
    .where(f.q, matchesWords)
    .eq('c.email_normalized', f.emailNormalized)
    .eq('c.lifecycle_stage', f.lifecycleStage)
    .atLeast('c.updated_at', f.changedSince)
    .after(ORDER, page);
  return db.query<LiveContactRow>(`select ${CONTACT_COLUMNS} from contacts c where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

/** Whether the live contact replied STOP to an SMS (null: no such live contact). */
export async function smsStopped(db: Queryable, accountId: string, id: string): Promise<boolean | null> {
  const rows = await db.query<{ sms_stopped: boolean }>(
    `select sms_stopped from contacts where account_id = $1 and id = $2 and archived_at is null and erased_at is null`,
    [accountId, id],
  );
  return rows[0]?.sms_stopped ?? null;
}

/**
 * Inserts unless the normalised email is taken (by any contact, archived ones included: the unique
 * index holds them). A concurrent insert of the same address waits for the other transaction and
 * then does nothing, so at most one ever commits. Returns false when the address was taken.
 */
export async function insertContact(tx: Queryable, accountId: string, id: string, v: ContactValues): Promise<boolean> {
  const rows = await tx.query(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, phone, lifecycle_stage,
                           do_not_contact, email_opt_out, sms_consent, tags, assignee)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict (account_id, email_normalized) where email_normalized is not null do nothing
     returning id`,
    [
      accountId, id, v.email, v.email_normalized, v.first_name, v.last_name, v.phone, v.lifecycle_stage,
      v.do_not_contact, v.email_opt_out, v.sms_consent, v.tags, v.assignee,
    ],
  );
  return rows.length === 1;
}

/** The contact holding this normalised address (live or archived), if any. */
export async function contactIdByEmail(db: Queryable, accountId: string, normalized: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>(`select id from contacts where account_id = $1 and email_normalized = $2`, [accountId, normalized]);
  return rows[0]?.id ?? null;
}

/** Whether any of these HMACs (one per erasure secret version) is an erased person's address. */
export async function isErasedAddress(db: Queryable, accountId: string, hmacs: string[]): Promise<boolean> {
  const rows = await db.query(`select 1 from erased_emails where account_id = $1 and email_hmac = any($2::text[]) limit 1`, [accountId, hmacs]);
  return rows.length > 0;
}

export async function userInAccount(db: Queryable, accountId: string, userId: string): Promise<boolean> {
  return (await db.query(`select 1 from users where account_id = $1 and id = $2`, [accountId, userId])).length > 0;
}

const UPDATABLE: ReadonlySet<keyof ContactValues> = new Set([
  'email', 'email_normalized', 'first_name', 'last_name', 'phone', 'lifecycle_stage',
  'do_not_contact', 'email_opt_out', 'sms_consent', 'tags', 'assignee',
]);

/** Writes the given columns of a live contact and moves updated_at; the caller holds the row lock. */
export async function updateContact(tx: Queryable, accountId: string, id: string, changes: Partial<ContactValues>): Promise<LiveContactRow> {
  const params: unknown[] = [accountId, id];
  const sets: string[] = [];
  for (const [col, value] of Object.entries(changes) as [keyof ContactValues, unknown][]) {
    if (!UPDATABLE.has(col)) throw new Error(`not an updatable contact column: ${col}`);
    params.push(value);
    sets.push(`${col} = $${params.length}`);
  }
  const rows = await tx.query<LiveContactRow>(
    `update contacts c set ${sets.join(', ')}, updated_at = clock_timestamp()
      where c.account_id = $1 and c.id = $2 and ${LIVE_CONTACT}
      returning ${CONTACT_COLUMNS}`,
    params,
  );
  return oneRow(rows, 'the updated contact (the caller holds its lock)');
}

// Erasure (switchboard contacts erase): the row stays (runs name it), the person's data goes.

export interface ErasureTarget {
  id: string;
  email_normalized: string | null;
  phone: string | null;
  erased_at: Date | null;
}

/** The contact in any state (archived and already-erased ones too), locked for the erasure. */
export async function lockForErasure(tx: Queryable, accountId: string, id: string): Promise<ErasureTarget | null> {
  const rows = await tx.query<ErasureTarget>(
    `select id, email_normalized, phone, erased_at from contacts where account_id = $1 and id = $2 for no key update`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export async function recordErasedAddress(tx: Queryable, accountId: string, hmac: string): Promise<void> {
  await tx.query(`insert into erased_emails (account_id, email_hmac) values ($1, $2) on conflict do nothing`, [accountId, hmac]);
}

export async function activeRunIds(tx: Queryable, accountId: string, contactId: string): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `select id from automation_runs where account_id = $1 and contact_id = $2 and status in (${ACTIVE_AUTOMATION_RUNS}) order by id`,
    [accountId, contactId],
  );
  return rows.map((r) => r.id);
}

/**
 * Deletes every outbox message (queued or already sent) of the contact's runs, and every message
 * of the account addressed to their email or phone number (digits and a leading + compared).
 */
export async function deleteMessages(tx: Queryable, accountId: string, c: ErasureTarget): Promise<number> {
  const rows = await tx.query(
    `delete from outbox o
      where o.account_id = $1
        and (o.automation_run_id in (select r.id from automation_runs r where r.account_id = $1 and r.contact_id = $2)
             or ($3::text is not null and o.channel = 'email' and lower(trim(o.to_address)) = $3)
             or ($4::text is not null and o.channel = 'sms' and regexp_replace(o.to_address, '[^0-9+]', '', 'g') = regexp_replace($4, '[^0-9+]', '', 'g')))
      returning o.id`,
    [accountId, c.id, c.email_normalized, c.phone],
  );
  return rows.length;
}

/** Stored answers of idempotent creates that carry the contact (its email and names) are dropped. */
export async function deleteStoredAnswers(tx: Queryable, accountId: string, contactId: string): Promise<void> {
  await tx.query(`delete from idempotency_keys where account_id = $1 and response_body->>'id' = $2`, [accountId, contactId]);
}

/** Clears every personal field; flags go back to a new record's defaults (they say nothing once the person is gone). */
export async function clearContact(tx: Queryable, accountId: string, id: string): Promise<void> {
  await tx.query(
    `update contacts
        set email = null, email_normalized = null, first_name = null, last_name = null, phone = null, lifecycle_stage = null,
            do_not_contact = false, email_opt_out = false, sms_consent = 'none', sms_stopped = false, tags = '{}', assignee = null,
            erased_at = now(), updated_at = clock_timestamp()
      where account_id = $1 and id = $2`,
    [accountId, id],
  );
}

// The fixture loader's bulk insert: contacts as a file describes them (archived and erased ones
// too), and the erased addresses' HMACs.

const CONTACT_COLS: Columns = [
  ['account_id', 'uuid'], ['id', 'uuid'], ['email', 'text'], ['email_normalized', 'text'], ['first_name', 'text'], ['last_name', 'text'],
  ['phone', 'text'], ['lifecycle_stage', 'text'], ['do_not_contact', 'bool'], ['email_opt_out', 'bool'], ['sms_consent', 'text'],
  ['tags', 'text[]'], ['assignee', 'uuid'], ['archived_at', 'timestamptz'], ['erased_at', 'timestamptz'],
];
const ERASED_COLS: Columns = [['account_id', 'uuid'], ['email_hmac', 'text'], ['erased_at', 'timestamptz']];

/** A contact row as loaded; an erased one carries no personal field (the caller clears them). */
export type ContactLoad = Omit<ContactValues, 'email' | 'email_normalized'> & {
  id: string;
  email: string | null;
  email_normalized: string | null;
  archived_at: Date | null;
  erased_at: Date | null;
};

export async function insertContactRows(tx: Queryable, accountId: string, rows: ContactLoad[]): Promise<void> {
  await insertRows(
    tx,
    'contacts',
    CONTACT_COLS,
    rows.map((c) => [
      accountId, c.id, c.email, c.email_normalized, c.first_name, c.last_name, c.phone, c.lifecycle_stage, c.do_not_contact,
      c.email_opt_out, c.sms_consent, c.tags, c.assignee, c.archived_at, c.erased_at,
    ]),
  );
}

export async function insertErasedAddresses(tx: Queryable, accountId: string, hmacs: string[], erasedAt: Date): Promise<void> {
  await insertRows(tx, 'erased_emails', ERASED_COLS, hmacs.map((h) => [accountId, h, erasedAt]));
}
