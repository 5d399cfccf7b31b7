// Hub sessions: SQL. A session row is keyed by the SHA-256 of its cookie token; the token itself
// is never stored. Expiry (idle and absolute) is decided in the lookup's WHERE, so an expired
// session is simply not found, on every process at once.
import type { Queryable } from '../../db/db.js';
import type { AccountState, Role, Subscription } from '../../domain/account.js';

export interface SessionRow {
  token_hash: Buffer;
  email: string;
  user_ids: string[];
  account_id: string | null;
  user_id: string | null;
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
  /** The picked user's role and name (null when no account is picked or the user is gone). */
  role: Role | null;
  user_name: string | null;
  account_state: AccountState | null;
  subscription: Subscription | null;
  /** How many of the session's accounts are not closed (0: the session has nothing left to act in). */
  open_accounts: number;
}

export async function insertSession(
  db: Queryable,
  s: { tokenHash: Buffer; email: string; userIds: string[]; accountId: string | null; userId: string | null; csrfToken: string },
): Promise<void> {
  await db.query(
    `insert into hub_sessions (token_hash, email, user_ids, account_id, user_id, csrf_token)
     values ($1, $2, $3::uuid[], $4, $5, $6)`,
    [s.tokenHash, s.email, s.userIds, s.accountId, s.userId, s.csrfToken],
  );
}

/**
 * The live session with this hash, its idle clock moved on (at most once a minute, so reads do not
 * write on every request), and the picked user's current role and account state: a role change, a
 * removal or an account's new state acts on the next request, on every process (read here, never
 * cached). A user removed from the picked account leaves the session without an account.
 */
export async function touchSession(db: Queryable, tokenHash: Buffer, idleMs: number, absoluteMs: number): Promise<SessionRow | null> {
  const rows = await db.query<SessionRow>(
    `with s as (
       update hub_sessions set last_seen_at = now()
        where token_hash = $1
          and last_seen_at > now() - $2 * interval '1 millisecond'
          and created_at > now() - $3 * interval '1 millisecond'
          and last_seen_at < now() - interval '1 minute'
       returning *
     ), live as (
       select * from s
       union all
       select * from hub_sessions
        where token_hash = $1 and not exists (select 1 from s)
          and last_seen_at > now() - $2 * interval '1 millisecond'
          and created_at > now() - $3 * interval '1 millisecond'
     )
     select live.token_hash, live.email, live.user_ids, live.account_id, live.user_id, live.csrf_token,
            live.created_at, live.last_seen_at, u.role, u.name as user_name,
            a.state as account_state, a.subscription,
            (select count(*)::int from users ou join accounts oa on oa.id = ou.account_id
              where ou.id = any (live.user_ids) and oa.state <> 'closed') as open_accounts
       from live
       left join users u on u.account_id = live.account_id and u.id = live.user_id
       left join accounts a on a.id = u.account_id`,
    [tokenHash, idleMs, absoluteMs],
  );
  return rows[0] ?? null;
}

/** Picks (or changes) the account a session acts in, as one of the users it was granted. */
export async function pickAccount(db: Queryable, tokenHash: Buffer, accountId: string, userId: string): Promise<void> {
  await db.query(`update hub_sessions set account_id = $2, user_id = $3 where token_hash = $1`, [tokenHash, accountId, userId]);
}

export async function deleteSession(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query(`delete from hub_sessions where token_hash = $1`, [tokenHash]);
}

// Ending every session of a user (removed, or a password set anew) is the users service's
// endSessionsOf (src/services/users/store.ts), inside that change's transaction.

/** Sessions past either expiry; the reaper keeps the table small (a lookup already ignores them). */
export async function deleteExpiredSessions(db: Queryable, idleMs: number, absoluteMs: number): Promise<number> {
  const rows = await db.query(
    `delete from hub_sessions
      where last_seen_at <= now() - $1 * interval '1 millisecond' or created_at <= now() - $2 * interval '1 millisecond'
      returning 1`,
    [idleMs, absoluteMs],
  );
  return rows.length;
}
