// Contacts, read side: the list's SQL. Lists walk (account_id, [lifecycle_stage,] updated_at desc,
// id desc) indexes; `q` uses the GIN index of word prefixes (migration 0011), `email` the unique
// contacts_email. The row, its columns and the write side live in src/services/contacts/store.ts.
import type { Queryable } from '../../db/db.js';
import { CONTACT_COLUMNS, LIVE_CONTACT, type ContactRow, type LifecycleStage } from '../../services/contacts/store.js';

export { getContact, LIFECYCLE_STAGES, SMS_CONSENT } from '../../services/contacts/store.js';
export type { ContactRow, LifecycleStage, SmsConsent } from '../../services/contacts/store.js';

export interface ContactFilters {
  q?: string;
  emailNormalized?: string;
  lifecycleStage?: LifecycleStage;
  changedSince?: Date;
}

export async function listContacts(
  db: Queryable,
  accountId: string,
  f: ContactFilters,
  after: { updatedAt: Date; id: string } | null,
  limit: number,
): Promise<ContactRow[]> {
  const params: unknown[] = [accountId];
  const where = ['c.account_id = $1', LIVE_CONTACT];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  // The index finds candidates by exact word prefixes (the first word-for-word as indexed); the
  // second condition is the rule itself, also for words over the index's 32 characters.
  if (f.q !== undefined) {
    add((p) => `switchboard_search_prefixes(c.search) @@ switchboard_prefix_query($1, ${p}) and c.search @@ switchboard_contact_query($1, ${p})`, f.q);
  }
  if (f.emailNormalized !== undefined) add((p) => `c.email_normalized = ${p}`, f.emailNormalized);
  if (f.lifecycleStage !== undefined) add((p) => `c.lifecycle_stage = ${p}`, f.lifecycleStage);
  if (f.changedSince !== undefined) add((p) => `c.updated_at >= ${p}`, f.changedSince);
  if (after) {
    params.push(after.updatedAt, after.id);
    where.push(`(c.updated_at, c.id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit);
  return db.query<ContactRow>(
    `select ${CONTACT_COLUMNS} from contacts c where ${where.join(' and ')} order by c.updated_at desc, c.id desc limit $${params.length}`,
    params,
  );
}

