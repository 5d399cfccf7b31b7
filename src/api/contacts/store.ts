// Contacts, read side: the list's SQL. Lists walk (account_id, [lifecycle_stage,] updated_at desc,
// id desc) indexes; `q` uses the GIN index of word prefixes (migration 0011), `email` the unique
// contacts_email. The row, its columns and the write side live in src/services/contacts/store.ts.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { LifecycleStage, LiveContactRow } from '../../domain/contact.js';
import { CONTACT_COLUMNS, LIVE_CONTACT } from '../../services/contacts/store.js';

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
