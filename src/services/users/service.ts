// An account's users: invite (add), change role, remove. One set of rules for the hub and the
// operator CLI; every change and its audit entry commit together. The owner rule: an account
// always keeps at least one owner, checked under a lock on the account's user rows so two
// concurrent demotions or removals cannot both pass.
import type { Config } from '../../config.js';
import type { Db, Queryable } from '../../db/db.js';
import { linkBase } from '../../delivery/unsubscribe.js';
import { USER_ROLES, type Role } from '../../domain/account.js';
import { ApiError, found } from '../../domain/errors.js';
import { checkEmail } from '../../lib/email.js';
import { uuidv7 } from '../../lib/ids.js';
import { insertUser } from '../../accounts/store.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { issueSetPasswordLink } from './links.js';
import { accountNameOf, queueTeamEmail, sendsEmail } from './mail.js';
import {
  deleteUser, endSessionsOf, handOverInactiveKeys, keysCreatedBy, lockAccountUsers, unassignUser, updateUserRole, userByEmail,
  type UserRow,
} from './store.js';

export { listUsers, userByEmail, type UserRow } from './store.js';

export interface InviteInput {
  email: string;
  name?: string;
  role: Role;
}

export interface Invited {
  user: UserRow;
  /** The one-time set-password link: shown once (hub) or printed (CLI), never stored. */
  link: string;
  /** True when the link was also queued as an email to the user. */
  emailed: boolean;
}

export function checkName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) throw new ApiError('invalid_field', 'The name must be at most 200 characters on one line.', { param: 'name' });
  return name;
}

function checkRole(role: string): Role {
  if (!(USER_ROLES as readonly string[]).includes(role)) throw new ApiError('invalid_field', `The role must be one of ${USER_ROLES.join(', ')}.`, { param: 'role' });
  return role as Role;
}

/**
 * Adds a user without a password and issues their set-password link. With an SMTP transport the
 * link is also emailed: queued in the outbox (channel `team`, email to the account's own people)
 * in this transaction, so the email exists exactly when the user does. With the development
 * outbox transport nothing would leave, so nothing is queued: the link is shown or printed.
 */
export async function inviteUser(db: Db, accountId: string, input: InviteInput, actor: Actor, config: Pick<Config, 'delivery'>): Promise<Invited> {
  const checked = checkEmail(input.email.trim());
  if (!checked.ok) throw new ApiError('invalid_field', `The email is not valid: ${checked.problem}.`, { param: 'email' });
  const name = checkName(input.name);
  const role = checkRole(input.role);
  const base = await linkBase(db, config);
  return db.transaction(async (tx) => {
    await lockAccountUsers(tx, accountId);
    const existing = await userByEmail(tx, accountId, checked.email);
    if (existing) throw new ApiError('user_exists', `The account already has a user with the email ${existing.email}.`, { param: 'email', resourceId: existing.id });
    const id = uuidv7();
    await insertUser(tx, { accountId, id, email: checked.email, name, role, passwordHash: null });
    const link = await issueSetPasswordLink(tx, accountId, id, base);
    const emailed = sendsEmail(config);
    if (emailed) await queueInvitation(tx, accountId, id, checked.email, link.url);
    // The operator adds users (`users add`); a hub user invites them.
    await recordAudit(tx, { accountId, actor, action: actor.kind === 'operator' ? 'user.added' : 'user.invited', objectKind: 'user', objectId: id, detail: { email: checked.email, role, emailed } });
    const user = (await userByEmail(tx, accountId, checked.email))!;
    return { user, link: link.url, emailed };
  });
}

async function queueInvitation(tx: Queryable, accountId: string, userId: string, to: string, url: string): Promise<void> {
  const name = await accountNameOf(tx, accountId);
  await queueTeamEmail(tx, {
    accountId,
    kind: `invite:${userId}`,
    to,
    subject: `You are invited to ${name} on Switchboard`,
    body: `You have been added to the account "${name}" on Switchboard.\n\nSet your password here (the link works once, for 7 days):\n${url}\n`,
  });
}

/** The account's owners other than `userId`, among the locked rows. */
const otherOwners = (users: UserRow[], userId: string) => users.filter((u) => u.role === 'owner' && u.id !== userId).length;

export async function setUserRole(db: Db, accountId: string, userId: string, rawRole: string, actor: Actor): Promise<UserRow> {
  const role = checkRole(rawRole);
  return db.transaction(async (tx) => {
    const users = await lockAccountUsers(tx, accountId);
    const user = found(users.find((u) => u.id === userId), 'user');
    if (user.role === role) return user;
    if (user.role === 'owner' && otherOwners(users, userId) === 0) {
      throw new ApiError('last_owner', `${user.email} is the account's last owner; make another user an owner first.`, { resourceId: userId });
    }
    await updateUserRole(tx, accountId, userId, role);
    await recordAudit(tx, { accountId, actor, action: 'user.role_changed', objectKind: 'user', objectId: userId, detail: { email: user.email, from: user.role, to: role } });
    return { ...user, role };
  });
}

/**
 * Removes a user: their sessions end, what was assigned to them becomes unassigned. A user whose
 * keys still work is refused (the keys would lose their creator while in use): revoke them first.
 * Keys of theirs that no longer work are kept as history, named as created by whoever removes
 * them (the operator: the account's first owner), and the audit entry says how many.
 */
export async function removeUser(db: Db, accountId: string, userId: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const users = await lockAccountUsers(tx, accountId);
    const user = found(users.find((u) => u.id === userId), 'user');
    if (user.role === 'owner' && otherOwners(users, userId) === 0) {
      throw new ApiError('last_owner', `${user.email} is the account's last owner and cannot be removed.`, { resourceId: userId });
    }
    const keys = await keysCreatedBy(tx, accountId, userId);
    if (keys.active > 0) {
      throw new ApiError('user_has_keys', `${user.email} created ${keys.active} API key(s) still in use; revoke or roll them first, then remove the user.`, { resourceId: userId });
    }
    let keysHandedOver = 0;
    if (keys.inactive > 0) {
      const heir =
        actor.kind === 'user' && actor.id !== userId ? actor.id : (users.find((u) => u.role === 'owner' && u.id !== userId) ?? users.find((u) => u.id !== userId))?.id;
      if (!heir) throw new ApiError('user_has_keys', `${user.email} created API keys and is the account's only user.`, { resourceId: userId });
      keysHandedOver = await handOverInactiveKeys(tx, accountId, userId, heir);
    }
    const unassigned = await unassignUser(tx, accountId, userId);
    await endSessionsOf(tx, userId);
    await deleteUser(tx, accountId, userId);
    await recordAudit(tx, {
      accountId, actor, action: 'user.removed', objectKind: 'user', objectId: userId,
      detail: { email: user.email, role: user.role, unassigned_contacts: unassigned.contacts, unassigned_items: unassigned.items, old_keys_handed_over: keysHandedOver },
    });
  });
}
