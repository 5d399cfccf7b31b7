// An account's users, their one-time links and the account's settings: SQL.
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';
import type { Role } from '../../domain/account.js';
import type { UserTokenPurpose } from '../../domain/hub.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** False until the user has set a password (an invitation or `account create` not used yet). */
  has_password: boolean;
  created_at: Date;
}

const USER_COLUMNS = `u.id, u.email, u.name, u.role, u.password_hash is not null as has_password, u.created_at`;

export async function listUsers(db: Queryable, accountId: string): Promise<UserRow[]> {
  return db.query<UserRow>(`select ${USER_COLUMNS} from users u where u.account_id = $1 order by u.created_at, u.id`, [accountId]);
}

/**
 * Locks every user row of the account (and so serialises the owner rule): two admins demoting
 * the last two owners at once cannot both see another owner left. Returns the account's users.
 * FOR UPDATE (not NO KEY UPDATE, src/db/db.ts): a removal deletes one of these rows under this lock.
 */
export async function lockAccountUsers(tx: Queryable, accountId: string): Promise<UserRow[]> {
  return tx.query<UserRow>(`select ${USER_COLUMNS} from users u where u.account_id = $1 order by u.created_at, u.id for update`, [accountId]);
}

export async function userByEmail(db: Queryable, accountId: string, email: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users u where u.account_id = $1 and lower(u.email) = lower($2)`, [accountId, email]);
  return rows[0] ?? null;
}

export async function userById(db: Queryable, accountId: string, userId: string): Promise<UserRow | null> {
  const rows = await db.query<UserRow>(`select ${USER_COLUMNS} from users u where u.account_id = $1 and u.id = $2`, [accountId, userId]);
  return rows[0] ?? null;
}

/** The user's password hash (null: none set yet, or no such user). */
export async function passwordHashOf(db: Queryable, accountId: string, userId: string): Promise<string | null> {
  const rows = await db.query<{ password_hash: string | null }>(`select password_hash from users where account_id = $1 and id = $2`, [accountId, userId]);
  return rows[0]?.password_hash ?? null;
}

export interface UserWithAccount {
  account_id: string;
  user_id: string;
  email: string;
  account_name: string;
}

/** Users with this email (any case) in every account but closed ones: whom "forgot password" writes to. */
export async function usersWithEmail(db: Queryable, email: string): Promise<UserWithAccount[]> {
  return db.query<UserWithAccount>(
    `select u.account_id, u.id as user_id, u.email, a.name as account_name
       from users u join accounts a on a.id = u.account_id
      where lower(u.email) = lower($1) and a.state <> 'closed'
      order by a.created_at, a.id`,
    [email],
  );
}

export async function updateUserName(tx: Queryable, accountId: string, userId: string, name: string): Promise<void> {
  await tx.query(`update users set name = $3 where account_id = $1 and id = $2`, [accountId, userId, name]);
}

/**
 * A user's new email. The sessions that act as this user alone show it from now on (a session
 * that also acts as the person's users in other accounts keeps the address it signed in with).
 */
export async function updateUserEmail(tx: Queryable, accountId: string, userId: string, email: string): Promise<void> {
  await tx.query(`update users set email = $3 where account_id = $1 and id = $2`, [accountId, userId, email]);
  await tx.query(`update hub_sessions set email = lower($2) where user_ids = array[$1::uuid]`, [userId, email]);
}

export async function updateUserRole(tx: Queryable, accountId: string, userId: string, role: Role): Promise<void> {
  await tx.query(`update users set role = $3 where account_id = $1 and id = $2`, [accountId, userId, role]);
}

/** Keys the user created, split by whether they still work (not revoked and not expired). */
export async function keysCreatedBy(tx: Queryable, accountId: string, userId: string): Promise<{ active: number; inactive: number }> {
  const rows = await tx.query<{ active: number; inactive: number }>(
    `select count(*) filter (where revoked_at is null and (expires_at is null or expires_at > now()))::int as active,
            count(*) filter (where not (revoked_at is null and (expires_at is null or expires_at > now())))::int as inactive
       from api_keys where account_id = $1 and created_by = $2`,
    [accountId, userId],
  );
  return oneRow(rows, 'key counts');
}

/** Names another user as the creator of the user's keys that no longer work (they are history only). */
export async function handOverInactiveKeys(tx: Queryable, accountId: string, fromUser: string, toUser: string): Promise<number> {
  const rows = await tx.query(
    `update api_keys set created_by = $3
      where account_id = $1 and created_by = $2 and not (revoked_at is null and (expires_at is null or expires_at > now()))
      returning 1`,
    [accountId, fromUser, toUser],
  );
  return rows.length;
}

/** Contacts and work items assigned to the user become unassigned (the assignee must be a user). */
export async function unassignUser(tx: Queryable, accountId: string, userId: string): Promise<{ contacts: number; items: number }> {
  const contacts = await tx.query(
    `update contacts set assignee = null, updated_at = now() where account_id = $1 and assignee = $2 returning 1`,
    [accountId, userId],
  );
  const items = await tx.query(
    `update wm_items set assignee = null, updated_at = now() where account_id = $1 and assignee = $2 returning 1`,
    [accountId, userId],
  );
  return { contacts: contacts.length, items: items.length };
}

/** Deletes the user; their one-time links go with them (on delete cascade). */
export async function deleteUser(tx: Queryable, accountId: string, userId: string): Promise<void> {
  await tx.query(`delete from users where account_id = $1 and id = $2`, [accountId, userId]);
}

/**
 * Ends every hub session that may act as this user, in the removal's (or new password's)
 * transaction: the user is signed out on every process at once. The one place sessions are
 * ended for a user.
 */
export async function endSessionsOf(tx: Queryable, userId: string, exceptSession?: Buffer): Promise<number> {
  // `except`: the session that changed its own password stays signed in.
  const rows = await tx.query(
    `delete from hub_sessions where $1::uuid = any (user_ids) and ($2::bytea is null or token_hash <> $2) returning 1`,
    [userId, exceptSession ?? null],
  );
  return rows.length;
}

export async function insertUserToken(
  tx: Queryable,
  t: { tokenHash: Buffer; accountId: string; userId: string; purpose: UserTokenPurpose; expiresAt: Date; newEmail?: string },
): Promise<void> {
  await tx.query(
    `insert into user_tokens (token_hash, account_id, user_id, purpose, expires_at, new_email) values ($1, $2, $3, $4, $5, $6)`,
    [t.tokenHash, t.accountId, t.userId, t.purpose, t.expiresAt, t.newEmail ?? null],
  );
}
