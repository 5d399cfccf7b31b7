// One-time set-password links, redeemed: SQL. A link is live while unused and unexpired; using it
// is one conditional update, so two uses of the same link at once cannot both succeed.
import type { Queryable } from '../../db/db.js';

export interface LinkTarget {
  account_id: string;
  user_id: string;
  email: string;
  name: string;
  account_name: string;
  expires_at: Date;
}

const LIVE = `t.purpose = 'set_password' and t.used_at is null and t.expires_at > now()`;

/** Who a live link is for; null when unknown, used or expired. */
export async function liveLinkTarget(db: Queryable, hash: Buffer): Promise<LinkTarget | null> {
  const rows = await db.query<LinkTarget>(
    `select t.account_id, t.user_id, u.email, u.name, a.name as account_name, t.expires_at
       from user_tokens t
       join users u on u.account_id = t.account_id and u.id = t.user_id
       join accounts a on a.id = t.account_id
      where t.token_hash = $1 and ${LIVE} and a.state <> 'closed'`,
    [hash],
  );
  return rows[0] ?? null;
}

/** Marks a live link used; returns whom it was for, or null when it was not live (any more). */
export async function useLink(tx: Queryable, hash: Buffer): Promise<{ account_id: string; user_id: string } | null> {
  const rows = await tx.query<{ account_id: string; user_id: string }>(
    `update user_tokens t set used_at = now() where t.token_hash = $1 and ${LIVE} returning t.account_id, t.user_id`,
    [hash],
  );
  return rows[0] ?? null;
}

export async function setUserPassword(tx: Queryable, accountId: string, userId: string, passwordHash: string): Promise<void> {
  await tx.query(`update users set password_hash = $3 where account_id = $1 and id = $2`, [accountId, userId, passwordHash]);
}

/** A password set through one link voids the user's other unused links. */
export async function expireOtherLinks(tx: Queryable, accountId: string, userId: string): Promise<void> {
  await tx.query(`update user_tokens set used_at = now() where account_id = $1 and user_id = $2 and used_at is null`, [accountId, userId]);
}
