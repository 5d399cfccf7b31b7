// Idempotency keys: SQL. A key is scoped to the account; rows live 24 hours.
import type { Queryable } from '../db/db.js';
import type { IdempotencyStatus } from '../domain/key.js';

export const RETENTION_HOURS = 24;

export interface KeyRow {
  fingerprint: string;
  status: IdempotencyStatus;
  locked_at: Date;
  response_status: number | null;
  response_body: unknown;
  response_headers: Record<string, string> | null;
}

/**
 * Phase 1: claims the key for this request. Returns true when this request now owns it (new, or
 * the old row had expired); false when a live row already exists.
 */
export async function claimKey(db: Queryable, accountId: string, key: string, fingerprint: string): Promise<boolean> {
  const rows = await db.query(
    `insert into idempotency_keys (account_id, key, fingerprint, status, locked_at, created_at, expires_at)
     values ($1, $2, $3, 'in_progress', now(), now(), now() + interval '${RETENTION_HOURS} hours')
     on conflict (account_id, key) do update set
       fingerprint = excluded.fingerprint, status = 'in_progress', locked_at = now(), created_at = now(),
       expires_at = excluded.expires_at, response_status = null, response_body = null, response_headers = null
       where idempotency_keys.expires_at < now()
     returning key`,
    [accountId, key, fingerprint],
  );
  return rows.length > 0;
}

export async function readKey(db: Queryable, accountId: string, key: string): Promise<KeyRow | null> {
  const rows = await db.query<KeyRow>(
    `select fingerprint, status, locked_at, response_status, response_body, response_headers
       from idempotency_keys where account_id = $1 and key = $2`,
    [accountId, key],
  );
  return rows[0] ?? null;
}

/** Phase 2, inside the work's transaction: the stored answer commits with the work or not at all. */
export async function completeKey(
  tx: Queryable,
  accountId: string,
  key: string,
  fingerprint: string,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): Promise<void> {
  await tx.query(
    `update idempotency_keys set status = 'done', response_status = $4, response_body = $5, response_headers = $6
      where account_id = $1 and key = $2 and fingerprint = $3`,
    [accountId, key, fingerprint, status, JSON.stringify(body), JSON.stringify(headers)],
  );
}

/** A refusal before anything happened gives the key back. */
export async function releaseKey(db: Queryable, accountId: string, key: string, fingerprint: string): Promise<void> {
  await db.query(
    `delete from idempotency_keys where account_id = $1 and key = $2 and fingerprint = $3 and status = 'in_progress'`,
    [accountId, key, fingerprint],
  );
}

/** The reaper: keys are remembered for 24 hours. */
export async function deleteExpiredKeys(db: Queryable): Promise<number> {
  const rows = await db.query(`delete from idempotency_keys where expires_at < now() returning key`);
  return rows.length;
}
