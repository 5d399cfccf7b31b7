// A person's own sign-in in one account (the hub's "Your profile"): their name, their password
// and their email. The route checks the current password (under the sign-in throttle) before a
// password or email change reaches here. An email change is only asked for here: it takes effect
// when the link sent to the new address is used (confirmEmailChange), so a mistyped or someone
// else's address never becomes the one that signs in, and until then the old email signs in.
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { mayManageSignIn, CHANGE_EMAIL_LINK_MS } from '../../domain/hub.js';
import type { Role } from '../../domain/account.js';
import { ApiError, found } from '../../domain/errors.js';
import { linkBase } from '../../delivery/unsubscribe.js';
import { checkEmail } from '../../lib/email.js';
import { hashPassword } from '../../lib/password.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { checkPassword } from '../accounts/create.js';
import { expireOtherLinks, liveLinkTarget, pendingEmailOf, setUserPassword, useLink } from './link-store.js';
import { hashOf, invalidLink, issueLink, linkUser, wellFormed } from './links.js';
import { accountNameOf, queueTeamEmail, sendsEmail } from './mail.js';
import { checkName } from './service.js';
import { endSessionsOf, lockAccountUsers, updateUserEmail, updateUserName, userById, type UserRow } from './store.js';

export interface Profile {
  user: UserRow;
  account_name: string;
  /** A new address waiting for its confirmation link to be used. */
  pending: { new_email: string; expires_at: Date } | null;
}

export async function profileOf(db: Db, accountId: string, userId: string): Promise<Profile> {
  const user = found(await userById(db, accountId, userId), 'user');
  return { user, account_name: await accountNameOf(db, accountId), pending: await pendingEmailOf(db, accountId, userId) };
}

export async function renameSelf(db: Db, accountId: string, userId: string, rawName: string, actor: Actor): Promise<void> {
  const name = checkName(rawName);
  await db.transaction(async (tx) => {
    const user = found(await userById(tx, accountId, userId), 'user');
    if (user.name === name) return;
    await updateUserName(tx, accountId, userId, name);
    await recordAudit(tx, { accountId, actor, action: 'user.name_changed', objectKind: 'user', objectId: userId, detail: { from: user.name, to: name } });
  });
}

/** A new password in the hub's rule, as an invalid_field naming the body's field. */
export function checkNewPassword(password: string, param: string): void {
  try {
    checkPassword(password);
  } catch (err) {
    throw new ApiError('invalid_field', (err as Error).message, { param });
  }
}

/**
 * Sets the user's new password (the current one was checked) and signs out every other session
 * that may act as them; `keep` (the session asking) stays. Unused set-password links are void:
 * the person is in charge of their password again. Returns how many sessions ended.
 */
export async function changeOwnPassword(db: Db, accountId: string, userId: string, password: string, keep: Buffer, actor: Actor): Promise<number> {
  checkNewPassword(password, 'new_password');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    found(await userById(tx, accountId, userId), 'user');
    await setUserPassword(tx, accountId, userId, passwordHash);
    await expireOtherLinks(tx, accountId, userId, 'set_password');
    const ended = await endSessionsOf(tx, userId, keep);
    await recordAudit(tx, { accountId, actor, action: 'user.password_changed', objectKind: 'user', objectId: userId, detail: { other_sessions_ended: ended } });
    return ended;
  });
}

/** The email, checked; refused when another user of the account has it (user_exists, any case). */
function checkNewEmail(users: UserRow[], userId: string, raw: string): string {
  const checked = checkEmail(raw.trim());
  if (!checked.ok) throw new ApiError('invalid_field', `The email is not valid: ${checked.problem}.`, { param: 'email' });
  const other = users.find((u) => u.id !== userId && u.email.toLowerCase() === checked.email.toLowerCase());
  if (other) throw new ApiError('user_exists', `Another user of this account has the email ${other.email}.`, { resourceId: other.id });
  return checked.email;
}

/** 409 email_needs_delivery without an SMTP transport (before anything else is checked). */
export function refuseWithoutEmail(config: Pick<Config, 'delivery'>): void {
  if (!sendsEmail(config)) {
    throw new ApiError('email_needs_delivery', 'This hub cannot send email yet, so a new address cannot be confirmed: ask an owner or admin of the account to change it for you on Users.');
  }
}

/**
 * Emails a confirmation link to the new address (only with an SMTP transport: showing the link
 * on screen would confirm nothing, so without one this is refused and an owner or admin changes
 * the address on Users). An earlier pending change is replaced.
 */
export async function requestEmailChange(
  db: Db,
  accountId: string,
  userId: string,
  rawEmail: string,
  actor: Actor,
  config: Pick<Config, 'delivery'>,
): Promise<{ new_email: string; expires_at: Date }> {
  refuseWithoutEmail(config);
  const base = await linkBase(db, config);
  return db.transaction(async (tx) => {
    const users = await lockAccountUsers(tx, accountId);
    const user = found(users.find((u) => u.id === userId), 'user');
    const email = checkNewEmail(users, userId, rawEmail);
    if (email.toLowerCase() === user.email.toLowerCase()) throw new ApiError('invalid_field', 'That is already your email.', { param: 'email' });
    await expireOtherLinks(tx, accountId, userId, 'change_email');
    const link = await issueLink(tx, { accountId, userId, purpose: 'change_email', lifetimeMs: CHANGE_EMAIL_LINK_MS, newEmail: email });
    const name = await accountNameOf(tx, accountId);
    await queueTeamEmail(tx, {
      accountId,
      kind: `change-email:${userId}`,
      to: email,
      subject: `Confirm your new email for ${name} on Switchboard`,
      body:
        `You asked to sign in to the account "${name}" on Switchboard with this address from now on.\n\n` +
        `Confirm it here (the link works once, for 24 hours; until then you sign in with ${user.email}):\n${base}/confirm-email?token=${link.token}\n\n` +
        `Did not ask? Ignore this email: nothing changes.\n`,
    });
    await recordAudit(tx, { accountId, actor, action: 'user.email_change_requested', objectKind: 'user', objectId: userId, detail: { from: user.email, to: email } });
    return { new_email: email, expires_at: link.expiresAt };
  });
}

/**
 * Uses a change_email link: the user's email becomes the one it confirms. Still refused (409
 * user_exists) if another user of the account took that address meanwhile. The old address is
 * told (with an SMTP transport), so a change nobody asked for is noticed.
 */
export async function confirmEmailChange(db: Db, token: string, config: Pick<Config, 'delivery'>): Promise<{ email: string; account_name: string }> {
  const target = wellFormed(token) ? await liveLinkTarget(db, hashOf(token), 'change_email') : null;
  if (!target) throw invalidLink();
  return db.transaction(async (tx) => {
    const used = await useLink(tx, hashOf(token), 'change_email');
    if (!used?.new_email) throw invalidLink();
    const users = await lockAccountUsers(tx, used.account_id);
    const user = found(users.find((u) => u.id === used.user_id), 'user');
    const email = checkNewEmail(users, used.user_id, used.new_email);
    await updateUserEmail(tx, used.account_id, used.user_id, email);
    if (sendsEmail(config)) {
      await queueTeamEmail(tx, {
        accountId: used.account_id,
        kind: `email-changed:${used.user_id}`,
        to: user.email,
        subject: `Your email for ${target.account_name} on Switchboard changed`,
        body: `You now sign in to the account "${target.account_name}" on Switchboard with ${email} instead of this address.\n\nNot you? Tell an owner of the account at once.\n`,
      });
    }
    await recordAudit(tx, {
      accountId: used.account_id,
      actor: linkUser(used.user_id, user),
      action: 'user.email_changed',
      objectKind: 'user',
      objectId: used.user_id,
      detail: { from: user.email, to: email, through: 'confirmation link' },
    });
    return { email, account_name: target.account_name };
  });
}

/**
 * An owner or admin sets a user's email directly (Users): the way to change one without real
 * email, and for someone who lost the old mailbox. The same rule as a new set-password link
 * (mayManageSignIn); a pending confirmation of the user's own is void.
 */
export async function setUserEmail(db: Db, accountId: string, userId: string, rawEmail: string, by: { actor: Actor; role: Role }): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const users = await lockAccountUsers(tx, accountId);
    const user = found(users.find((u) => u.id === userId), 'user');
    if (!mayManageSignIn(by.role, user.role)) throw new ApiError('role_forbidden', "Only an owner can change an owner's email.");
    const email = checkNewEmail(users, userId, rawEmail);
    if (email === user.email) return user;
    await updateUserEmail(tx, accountId, userId, email);
    await expireOtherLinks(tx, accountId, userId, 'change_email');
    await recordAudit(tx, { accountId, actor: by.actor, action: 'user.email_changed', objectKind: 'user', objectId: userId, detail: { from: user.email, to: email, through: 'set by an owner or admin' } });
    return { ...user, email };
  });
}
