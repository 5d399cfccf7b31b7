// API keys, the account's own management of them (hub Account → API keys and the operator CLI):
// the listing with creator and this month's spend, and the row writes of update, revoke and roll.
// The request pipeline's lookup stays in src/keys/store.ts.
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';

/** The first day of the current UTC month: the key of api_key_spend rows (as billing writes them). */
const MONTH = `date_trunc('month', now() at time zone 'utc')::date`;

export interface ManagedKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  monthly_spend_cap_micros: unknown;
  revoked_at: Date | null;
  replaced_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  created_by: string;
  created_by_name: string;
  created_by_email: string;
  spent_micros: unknown;
}

const SELECT = `
  select k.id, k.name, k.prefix, k.scopes, k.expires_at, k.monthly_spend_cap_micros, k.revoked_at, k.replaced_by,
         k.created_at, k.last_used_at, k.created_by, u.name as created_by_name, u.email as created_by_email,
         coalesce(s.spent_micros, 0) as spent_micros
    from api_keys k
    join users u on u.account_id = k.account_id and u.id = k.created_by
    left join api_key_spend s on s.account_id = k.account_id and s.key_id = k.id and s.month = ${MONTH}`;

/**
 * Every key of the account, newest first. Not paged: an account holds at most 10 active keys, and
 * revoked and rolled ones accumulate only as fast as people act by hand (a few hundred at most);
 * one walk of api_keys_account with a primary-key probe of users and api_key_spend per key.
 */
export async function listManagedKeys(db: Queryable, accountId: string): Promise<ManagedKeyRow[]> {
  return db.query<ManagedKeyRow>(`${SELECT} where k.account_id = $1 order by k.created_at desc, k.id desc`, [accountId]);
}

export async function getManagedKey(db: Queryable, accountId: string, keyId: string): Promise<ManagedKeyRow | null> {
  const rows = await db.query<ManagedKeyRow>(`${SELECT} where k.account_id = $1 and k.id = $2`, [accountId, keyId]);
  return rows[0] ?? null;
}

export interface LockedKey {
  id: string;
  name: string;
  scopes: string[];
  expires_at: Date | null;
  monthly_spend_cap_micros: unknown;
  revoked_at: Date | null;
  replaced_by: string | null;
  created_by: string;
  /** expires_at is set and not after the database's now(). */
  expired: boolean;
}

/** The key's row, locked for the rest of the transaction; null when the account has no such key. */
export async function lockKey(tx: Queryable, accountId: string, keyId: string): Promise<LockedKey | null> {
  const rows = await tx.query<LockedKey>(
    `select id, name, scopes, expires_at, monthly_spend_cap_micros, revoked_at, replaced_by, created_by,
            coalesce(expires_at <= now(), false) as expired
       from api_keys where account_id = $1 and id = $2 for no key update`,
    [accountId, keyId],
  );
  return rows[0] ?? null;
}

export async function setKeyName(tx: Queryable, keyId: string, name: string): Promise<void> {
  await tx.query('update api_keys set name = $2 where id = $1', [keyId, name]);
}

export async function setKeyCapById(tx: Queryable, keyId: string, capMicros: number | null): Promise<void> {
  await tx.query('update api_keys set monthly_spend_cap_micros = $2 where id = $1', [keyId, capMicros]);
}

export async function markRevoked(tx: Queryable, keyId: string): Promise<void> {
  await tx.query('update api_keys set revoked_at = now() where id = $1 and revoked_at is null', [keyId]);
}

/**
 * The rolled key names its successor and stops working after the grace: now() + grace, or its own
 * expiry when that comes sooner (least() skips a null expiry). Returns the new expiry.
 */
export async function markRolled(tx: Queryable, keyId: string, replacedBy: string, graceMs: number): Promise<Date> {
  const rows = await tx.query<{ expires_at: Date }>(
    `update api_keys set replaced_by = $2, expires_at = least(expires_at, now() + $3::bigint * interval '1 millisecond')
      where id = $1 returning expires_at`,
    [keyId, replacedBy, graceMs],
  );
  return oneRow(rows, 'the replaced key').expires_at;
}
