// One-time links (set a password, confirm a new email), redeemed: SQL. A link is live while unused
// and unexpired; using it is one conditional update, so two uses of the same link at once cannot
// both succeed. A link of one purpose is never live as the other.
import type { Queryable } from '../../db/db.js';
import type { UserTokenPurpose } from '../../domain/hub.js';

export interface LinkTarget {
  account_id: string;
  user_id: string;
  email: string;
  name: string;
  account_name: string;
  expires_at: Date;
  /** The address a change_email link confirms (null for set_password). */
  new_email: string | null;
}

const LIVE = `t.purpose = $2 and t.used_at is null and t.expires_at > now()`;

/** Who a live link of this purpose is for; null when unknown, used or expired. */
export async function liveLinkTarget(db: Queryable, hash: Buffer, purpose: UserTokenPurpose = 'set_password'): Promise<LinkTarget | null> {
  const rows = await db.query<LinkTarget>(
    `select t.account_id, t.user_id, u.email, u.name, a.name as account_name, t.expires_at, t.new_email
       from user_tokens t
       join users u on u.account_id = t.account_id and u.id = t.user_id
       join accounts a on a.id = t.account_id
      where t.token_hash = $1 and ${LIVE} and a.state <> 'closed'`,
    [hash, purpose],
  );
  return rows[0] ?? null;
}

/** Marks a live link used; returns whom it was for, or null when it was not live (any more). */
export async function useLink(
  tx: Queryable,
  hash: Buffer,
  purpose: UserTokenPurpose = 'set_password',
): Promise<{ account_id: string; user_id: string; new_email: string | null } | null> {
  const rows = await tx.query<{ account_id: string; user_id: string; new_email: string | null }>(
    `update user_tokens t set used_at = now() where t.token_hash = $1 and ${LIVE} returning t.account_id, t.user_id, t.new_email`,
    [hash, purpose],
  );
  return rows[0] ?? null;
}

export async function setUserPassword(tx: Queryable, accountId: string, userId: string, passwordHash: string): Promise<void> {
  await tx.query(`update users set password_hash = $3 where account_id = $1 and id = $2`, [accountId, userId, passwordHash]);
}

/**
 * Voids the user's unused links: of one purpose (a new link replaces the earlier ones), or all of
 * them (a password set through a link: whoever set it now holds the user, so a pending email
 * change asked for before is void too).
 */
export async function expireOtherLinks(tx: Queryable, accountId: string, userId: string, purpose?: UserTokenPurpose): Promise<void> {
  await tx.query(
    `update user_tokens set used_at = now() where account_id = $1 and user_id = $2 and used_at is null and ($3::text is null or purpose = $3)`,
    [accountId, userId, purpose ?? null],
  );
}

/** When the user's newest link of this purpose was issued (null: never). */
export async function newestLinkAt(db: Queryable, accountId: string, userId: string, purpose: UserTokenPurpose): Promise<Date | null> {
  const rows = await db.query<{ at: Date | null }>(
    `select max(created_at) as at from user_tokens where account_id = $1 and user_id = $2 and purpose = $3`,
    [accountId, userId, purpose],
  );
  return rows[0]?.at ?? null;
}

/** The address a user's live change_email link would confirm, and until when (null: none pending). */
export async function pendingEmailOf(db: Queryable, accountId: string, userId: string): Promise<{ new_email: string; expires_at: Date } | null> {
  const rows = await db.query<{ new_email: string; expires_at: Date }>(
    `select t.new_email, t.expires_at from user_tokens t
      where t.account_id = $1 and t.user_id = $3 and ${LIVE}
      order by t.created_at desc limit 1`,
    [accountId, 'change_email', userId],
  );
  return rows[0] ?? null;
}
