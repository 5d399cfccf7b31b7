// One-time links: set a password (a new owner from `account create`, an invited user, a new link
// an owner sends, the forgot-password form) and confirm a new email. Only the SHA-256 of the token is stored (user_tokens), so a copy of the store cannot sign anyone in; the
// token itself exists only in the link handed to the person (printed, shown once, or emailed).
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../db/db.js';
import { SET_PASSWORD_LINK_MS, type UserTokenPurpose } from '../../domain/hub.js';
import { ApiError } from '../../domain/errors.js';
import { hashPassword } from '../../lib/password.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { checkPassword } from '../accounts/create.js';
import { expireOtherLinks, liveLinkTarget, setUserPassword, useLink, type LinkTarget } from './link-store.js';
import { endSessionsOf, insertUserToken } from './store.js';

export const hashOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Stores a new link's hash; returns the token, which only the link carries. */
export async function issueLink(
  tx: Queryable,
  l: { accountId: string; userId: string; purpose: UserTokenPurpose; lifetimeMs: number; newEmail?: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + l.lifetimeMs);
  await insertUserToken(tx, { tokenHash: hashOf(token), accountId: l.accountId, userId: l.userId, purpose: l.purpose, expiresAt, newEmail: l.newEmail });
  return { token, expiresAt };
}

/**
 * Issues a link good for SET_PASSWORD_LINK_MS; call it in the transaction that made or invited the
 * user. `base` is where links point: delivery's linkBase (SWITCHBOARD_PUBLIC_URL, else where the
 * newest API process listens), the same base as the links in messages.
 */
export async function issueSetPasswordLink(tx: Queryable, accountId: string, userId: string, base: string): Promise<{ url: string; token: string }> {
  const { token } = await issueLink(tx, { accountId, userId, purpose: 'set_password', lifetimeMs: SET_PASSWORD_LINK_MS });
  return { url: `${base}/set-password?token=${token}`, token };
}

/** The audit actor for a user acting through a link of theirs ("Name <email>", or the email). */
export const linkUser = (userId: string, u: { name: string; email: string }): Actor => ({ kind: 'user', id: userId, label: u.name ? `${u.name} <${u.email}>` : u.email });

export const invalidLink = (): ApiError =>
  new ApiError('invalid_link', 'This link is unknown, used or expired: ask an owner or admin of the account for a new one.');

/** A link token as links carry it (43 base64url characters); anything else is not looked up. */
export const wellFormed = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/** Who a link is for (to greet them on the set-password page); 410 invalid_link when it is not live. */
export async function setPasswordLinkTarget(db: Queryable, token: string): Promise<LinkTarget> {
  const target = wellFormed(token) ? await liveLinkTarget(db, hashOf(token)) : null;
  if (!target) throw invalidLink();
  return target;
}

/**
 * Sets the password of the link's user and uses the link up (with the user's other links), ends
 * every session that could act as the user (whoever held one no longer knows the password) and
 * records user.password_set, all in one transaction. Returns whom it was for, so the caller can
 * sign them in. An AccountInputError (field `password`) when the password breaks the rule.
 */
export async function setPasswordWithLink(db: Db, token: string, password: string): Promise<LinkTarget> {
  checkPassword(password);
  const target = await setPasswordLinkTarget(db, token);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const used = await useLink(tx, hashOf(token));
    if (!used) throw invalidLink(); // used or expired since it was read
    await setUserPassword(tx, used.account_id, used.user_id, passwordHash);
    await expireOtherLinks(tx, used.account_id, used.user_id);
    await endSessionsOf(tx, used.user_id);
    await recordAudit(tx, {
      accountId: used.account_id,
      actor: linkUser(used.user_id, target),
      action: 'user.password_set',
      objectKind: 'user',
      objectId: used.user_id,
      detail: { through: 'one-time link' },
    });
    return target;
  });
}
