// API keys: SQL for the request pipeline's lookup and for the operator commands.
import type { Queryable } from '../db/db.js';
import type { AccountState, Subscription, Tier } from '../domain/account.js';
import { MAX_ACTIVE_KEYS, mayCreateKeys } from '../domain/key.js';
import { generateKey } from '../lib/api-keys.js';
import { uuidv7 } from '../lib/ids.js';

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

/** One query per request: the key and its account's state. No cache, so revocation acts at once everywhere. */
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

export class KeyRuleError extends Error {}

export interface CreateKeyInput {
  accountId: string;
  /** The owner or admin user creating it. */
  createdBy: string;
  name: string;
  scopes: string[];
  expiresAt: Date | null;
  monthlySpendCapMicros: number | null;
  /** Fixtures load revoked keys as they are. */
  revoked?: boolean;
}

export interface CreatedKey {
  id: string;
  value: string;
  prefix: string;
}

/**
 * Creates a key under a lock on the account row, so two concurrent creations cannot both pass
 * the limit of 10 active keys. Must run inside a transaction.
 */
export async function createKey(tx: Queryable, input: CreateKeyInput): Promise<CreatedKey> {
  const acct = await tx.query<{ id: string }>('select id from accounts where id = $1 for update', [input.accountId]);
  if (!acct.length) throw new KeyRuleError(`no account ${input.accountId}`);
  const user = await tx.query<{ role: string }>('select role from users where account_id = $1 and id = $2', [
    input.accountId,
    input.createdBy,
  ]);
  if (!user.length) throw new KeyRuleError(`no user ${input.createdBy} in account ${input.accountId}`);
  if (!mayCreateKeys(user[0].role)) {
    throw new KeyRuleError(`only an owner or admin of the account creates keys; ${input.createdBy} is a ${user[0].role}`);
  }
  if (!input.revoked) {
    const active = await tx.query<{ n: number }>(
      `select count(*)::int as n from api_keys
        where account_id = $1 and revoked_at is null and (expires_at is null or expires_at > now())`,
      [input.accountId],
    );
    if (active[0].n >= MAX_ACTIVE_KEYS) {
      throw new KeyRuleError(
        `the account already has ${MAX_ACTIVE_KEYS} active keys, the most it may have; revoke one first`,
      );
    }
  }
  const key = generateKey();
  const id = uuidv7();
  await tx.query(
    `insert into api_keys (id, account_id, hash, prefix, name, scopes, expires_at, monthly_spend_cap_micros, revoked_at, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      id,
      input.accountId,
      key.hash,
      key.prefix,
      input.name,
      input.scopes,
      input.expiresAt,
      input.monthlySpendCapMicros,
      input.revoked ? new Date() : null,
      input.createdBy,
    ],
  );
  return { id, value: key.value, prefix: key.prefix };
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
}

export async function listKeys(db: Queryable, accountId: string): Promise<KeyListRow[]> {
  return db.query<KeyListRow>(
    `select id, name, prefix, scopes, expires_at, monthly_spend_cap_micros, revoked_at, created_by, created_at, last_used_at
       from api_keys where account_id = $1 order by created_at, id`,
    [accountId],
  );
}

/** Revokes a key; true when it was active. A key already revoked keeps its first revocation time. */
export async function revokeKey(db: Queryable, accountId: string, keyId: string): Promise<'revoked' | 'already' | 'missing'> {
  const rows = await db.query<{ revoked_at: Date | null; was: Date | null }>(
    `update api_keys k set revoked_at = coalesce(k.revoked_at, now())
       from api_keys old where old.id = k.id and k.account_id = $1 and k.id = $2
     returning k.revoked_at, old.revoked_at as was`,
    [accountId, keyId],
  );
  if (!rows.length) return 'missing';
  return rows[0].was ? 'already' : 'revoked';
}

export async function setKeyCap(db: Queryable, accountId: string, keyId: string, capMicros: number | null): Promise<boolean> {
  const rows = await db.query('update api_keys set monthly_spend_cap_micros = $3 where account_id = $1 and id = $2 returning id', [
    accountId,
    keyId,
    capMicros,
  ]);
  return rows.length > 0;
}
