// API keys: SQL for the request pipeline's lookup and for the operator commands.
import type { Queryable } from '../db/db.js';
import { oneRow } from '../db/rows.js';
import type { AccountState, Subscription, Tier } from '../domain/account.js';

export interface AuthRow {
  key_id: string;
  account_id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  state: AccountState;
  subscription: Subscription;
  api_open: boolean;
  tier: Tier;
  requests_per_minute: number | null;
}

/**
 * The key and its account's state, in one query. The request pipeline reads it through the
 * process's key cache (auth-cache.ts); whatever changes these columns calls invalidateAuth after
 * its commit.
 */
export async function findKeyForAuth(db: Queryable, hash: Buffer): Promise<AuthRow | null> {
  const rows = await db.query<AuthRow>(
    `select k.id as key_id, k.account_id, k.name, k.prefix, k.scopes, k.expires_at, k.revoked_at, k.last_used_at,
            a.state, a.subscription, a.api_open, a.tier, a.requests_per_minute
       from api_keys k join accounts a on a.id = k.account_id
      where k.hash = $1`,
    [hash],
  );
  return rows[0] ?? null;
}

/** last_used_at moves at most once a minute: the hot path writes nothing it need not. */
export async function touchKey(db: Queryable, keyId: string): Promise<void> {
  await db.query(
    `update api_keys set last_used_at = now()
      where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}

/** Takes the account row for the rest of the transaction; false when there is no such account. */
export async function lockAccountForKeys(tx: Queryable, accountId: string): Promise<boolean> {
  return (await tx.query('select id from accounts where id = $1 for no key update', [accountId])).length > 0;
}

/** The user's role in the account, or null when the user is not one of its users. */
export async function userRole(tx: Queryable, accountId: string, userId: string): Promise<string | null> {
  const rows = await tx.query<{ role: string }>('select role from users where account_id = $1 and id = $2', [accountId, userId]);
  return rows[0]?.role ?? null;
}

/**
 * Keys neither revoked nor expired nor rolled: a rolled key in its grace period still works but
 * does not count, so rolling never needs a free slot. `except` leaves out the key being rolled.
 */
export async function countActiveKeys(tx: Queryable, accountId: string, except: string | null = null): Promise<number> {
  const rows = await tx.query<{ n: number }>(
    `select count(*)::int as n from api_keys
      where account_id = $1 and revoked_at is null and (expires_at is null or expires_at > now()) and replaced_by is null
        and ($2::uuid is null or id <> $2::uuid)`,
    [accountId, except],
  );
  return oneRow(rows, 'key count').n;
}

export interface KeyRow {
  id: string;
  accountId: string;
  hash: Buffer;
  prefix: string;
  name: string;
  scopes: string[];
  expiresAt: Date | null;
  monthlySpendCapMicros: number | null;
  revokedAt: Date | null;
  createdBy: string;
}

export async function insertKey(tx: Queryable, k: KeyRow): Promise<void> {
  await tx.query(
    `insert into api_keys (id, account_id, hash, prefix, name, scopes, expires_at, monthly_spend_cap_micros, revoked_at, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [k.id, k.accountId, k.hash, k.prefix, k.name, k.scopes, k.expiresAt, k.monthlySpendCapMicros, k.revokedAt, k.createdBy],
  );
}

export interface KeyListRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  expires_at: Date | null;
  monthly_spend_cap_micros: number | null;
  revoked_at: Date | null;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  replaced_by: string | null;
}

export async function listKeys(db: Queryable, accountId: string): Promise<KeyListRow[]> {
  return db.query<KeyListRow>(
    `select id, name, prefix, scopes, expires_at, monthly_spend_cap_micros, revoked_at, created_by, created_at, last_used_at, replaced_by
       from api_keys where account_id = $1 order by created_at, id`,
    [accountId],
  );
}
