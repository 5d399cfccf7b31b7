// New set-password links for users who have one already or lost theirs: sent by an owner or admin
// (the Users screen), printed by the operator (`users reset-password`), or asked for by anyone on
// the sign-in page ("Forgot password?"). The password and the user's sessions stay as they are
// until the link is used (setPasswordWithLink then ends every session): a link sent by mistake
// locks nobody out.
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import type { Role } from '../../domain/account.js';
import { ApiError, found } from '../../domain/errors.js';
import { FORGOT_PASSWORD_EMAIL_GAP_MS, mayManageSignIn } from '../../domain/hub.js';
import { linkBase } from '../../delivery/unsubscribe.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { expireOtherLinks, newestLinkAt } from './link-store.js';
import { issueSetPasswordLink } from './links.js';
import { accountNameOf, queueTeamEmail, sendsEmail } from './mail.js';
import { userById, usersWithEmail, type UserRow } from './store.js';

export interface NewLink {
  user: UserRow;
  /** Shown once (hub) or printed (CLI), never stored. */
  link: string;
  /** True when the link was also queued as an email to the user. */
  emailed: boolean;
}

/** Who sends the link: the operator may send anyone one; a hub user as their role allows. */
export type LinkSender = { actor: Actor; role: Role | 'operator' };

/**
 * Issues the user a fresh set-password link; their earlier unused set-password links stop
 * working (only the newest one handed out is live). Emailed as well with an SMTP transport.
 * 404 for a user of another account; 403 role_forbidden for an admin sending an owner one.
 */
export async function sendSetPasswordLink(db: Db, accountId: string, userId: string, by: LinkSender, config: Pick<Config, 'delivery'>): Promise<NewLink> {
  const base = await linkBase(db, config);
  return db.transaction(async (tx) => {
    const user = found(await userById(tx, accountId, userId), 'user');
    if (by.role !== 'operator' && !mayManageSignIn(by.role, user.role)) {
      throw new ApiError('role_forbidden', 'Only an owner can send an owner a new set-password link.');
    }
    await expireOtherLinks(tx, accountId, userId, 'set_password');
    const link = await issueSetPasswordLink(tx, accountId, userId, base);
    const emailed = sendsEmail(config);
    if (emailed) {
      const name = await accountNameOf(tx, accountId);
      await queueTeamEmail(tx, {
        accountId,
        kind: `password-link:${userId}`,
        to: user.email,
        subject: `A new password link for ${name} on Switchboard`,
        body: `Someone who manages the account "${name}" on Switchboard sent you a link to set a new password.\n\nSet it here (the link works once, for 7 days; your current password works until then):\n${link.url}\n`,
      });
    }
    await recordAudit(tx, { accountId, actor: by.actor, action: 'user.password_link_sent', objectKind: 'user', objectId: userId, detail: { email: user.email, emailed } });
    return { user, link: link.url, emailed };
  });
}

/**
 * "Forgot password?": emails a set-password link to each user with this address, one email per
 * user, each in its own account's outbox (an account's Messages must not show another account's
 * name). Runs off the request path (the form answers the same whether or not the address exists),
 * only with an SMTP transport. A user sent one in the last FORGOT_PASSWORD_EMAIL_GAP_MS gets no
 * other, so the form cannot fill a mailbox. Earlier links are left live: a stranger who types
 * someone's address must not void the link an owner sent them. Returns how many were sent.
 */
export async function emailForgottenPasswordLinks(db: Db, email: string, config: Pick<Config, 'delivery'>): Promise<number> {
  if (!sendsEmail(config)) return 0;
  const users = await usersWithEmail(db, email);
  if (!users.length) return 0;
  const base = await linkBase(db, config);
  let sent = 0;
  for (const u of users) {
    sent += await db.transaction(async (tx) => {
      const newest = await newestLinkAt(tx, u.account_id, u.user_id, 'set_password');
      if (newest && Date.now() - newest.getTime() < FORGOT_PASSWORD_EMAIL_GAP_MS) return 0;
      const link = await issueSetPasswordLink(tx, u.account_id, u.user_id, base);
      await queueTeamEmail(tx, {
        accountId: u.account_id,
        kind: `forgot-password:${u.user_id}`,
        to: u.email,
        subject: `Set a new password for ${u.account_name} on Switchboard`,
        body:
          `Someone (we hope you) asked for a new password for the account "${u.account_name}" on Switchboard.\n\n` +
          `Set it here (the link works once, for 7 days):\n${link.url}\n\n` +
          `Did not ask? Ignore this email: your password stays as it is.\n`,
      });
      await recordAudit(tx, {
        accountId: u.account_id,
        actor: { kind: 'user', id: u.user_id, label: `${u.email} (forgot password form)` },
        action: 'user.password_link_requested',
        objectKind: 'user',
        objectId: u.user_id,
        detail: { email: u.email, emailed: true },
      });
      return 1;
    });
  }
  return sent;
}
