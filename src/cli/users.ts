// `switchboard users add|list|remove|set-role --account ID …`: an account's users, with the hub's
// rules (services/users/service.ts): one email per account, the last owner stays, a removed user's
// sessions end. `add` prints the user's one-time set-password link, `reset-password` a new one.
import { getAccount } from '../accounts/store.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/db.js';
import { USER_ROLES } from '../domain/account.js';
import { OPERATOR } from '../services/audit/service.js';
import { sendSetPasswordLink } from '../services/users/reset.js';
import { inviteUser, listUsers, removeUser, setUserRole, userByEmail } from '../services/users/service.js';
import { choiceArg, parseCommandArgs, required, show, uuidArg } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { CommandError, UsageError, done, iso, json, table, type CommandContext, type CommandResult } from './result.js';
import type { Role } from '../domain/account.js';

export const USERS_USAGE = `Usage:
  switchboard users list --account ID [--json]
  switchboard users add --account ID --email EMAIL [--name NAME] [--role owner|admin|member] [--json]
  switchboard users set-role --account ID --user USER_ID --role owner|admin|member
  switchboard users remove --account ID --user USER_ID
  switchboard users reset-password --account ID --email EMAIL [--json]

  add       the user (role member unless given) and a one-time link (7 days) where they set a
            password; with SWITCHBOARD_EMAIL_TRANSPORT=smtp the link is also emailed to them.
  remove    ends the user's hub sessions; refused for the account's last owner, and for a user
            whose API keys are still in use (revoke them first).
  reset-password  a new one-time link (7 days) where the user sets a new password; their earlier
            unused links stop working, their password works until the link is used. Emailed too
            with SWITCHBOARD_EMAIL_TRANSPORT=smtp.`;

type UsersArgs =
  | { action: 'list'; accountId: string; json: boolean }
  | { action: 'add'; accountId: string; email: string; name: string; role: Role; json: boolean }
  | { action: 'set-role'; accountId: string; userId: string; role: Role }
  | { action: 'remove'; accountId: string; userId: string }
  | { action: 'reset-password'; accountId: string; email: string; json: boolean };

function parse(args: readonly string[]): UsersArgs {
  const [action, ...rest] = args;
  if (action === 'list') {
    const p = parseCommandArgs(rest, { strings: ['account'], flags: ['json'] });
    return { action, accountId: uuidArg(p, 'account'), json: p.flags.has('json') };
  }
  if (action === 'add') {
    const p = parseCommandArgs(rest, { strings: ['account', 'email', 'name', 'role'], flags: ['json'] });
    const role = choiceArg('role', p.strings.get('role') ?? 'member', USER_ROLES);
    return { action, accountId: uuidArg(p, 'account'), email: required(p, 'email'), name: p.strings.get('name') ?? '', role, json: p.flags.has('json') };
  }
  if (action === 'set-role') {
    const p = parseCommandArgs(rest, { strings: ['account', 'user', 'role'] });
    return { action, accountId: uuidArg(p, 'account'), userId: uuidArg(p, 'user'), role: choiceArg('role', required(p, 'role'), USER_ROLES) };
  }
  if (action === 'remove') {
    const p = parseCommandArgs(rest, { strings: ['account', 'user'] });
    return { action, accountId: uuidArg(p, 'account'), userId: uuidArg(p, 'user') };
  }
  if (action === 'reset-password') {
    const p = parseCommandArgs(rest, { strings: ['account', 'email'], flags: ['json'] });
    return { action, accountId: uuidArg(p, 'account'), email: required(p, 'email'), json: p.flags.has('json') };
  }
  if (action === undefined) throw new UsageError('users needs an action: list, add, set-role, remove or reset-password');
  throw new UsageError(`unknown users action ${show(action)}`);
}

async function run(db: Db, a: UsersArgs): Promise<CommandResult> {
  // An unknown account reads as "no such user" in the services; name the account instead.
  if (!(await getAccount(db, a.accountId))) throw new CommandError(`no account ${a.accountId}`);
  return act(db, a);
}

async function act(db: Db, a: UsersArgs): Promise<CommandResult> {
  if (a.action === 'list') {
    const users = (await listUsers(db, a.accountId)).map((u) => ({ ...u, created_at: iso(u.created_at) }));
    if (a.json) return done(json(users));
    return done(table(['ID', 'EMAIL', 'NAME', 'ROLE', 'PASSWORD', 'CREATED'], users.map((u) => [u.id, u.email, u.name, u.role, u.has_password ? 'set' : 'not set', u.created_at!])));
  }
  if (a.action === 'add') {
    const r = await inviteUser(db, a.accountId, { email: a.email, name: a.name, role: a.role }, OPERATOR, loadConfig());
    if (a.json) return done(json({ user_id: r.user.id, email: r.user.email, role: r.user.role, set_password_url: r.link, emailed: r.emailed }));
    const emailed = r.emailed ? '\nthe link was also emailed to them' : '';
    return done(`added ${r.user.email} (${r.user.role}) as user ${r.user.id}\nthey set a password here (one time, 7 days; not shown again):\n${r.link}${emailed}`);
  }
  if (a.action === 'set-role') {
    const u = await setUserRole(db, a.accountId, a.userId, a.role, OPERATOR);
    return done(`user ${u.id} (${u.email}) is now ${u.role}`);
  }
  if (a.action === 'reset-password') {
    const user = await userByEmail(db, a.accountId, a.email.trim());
    if (!user) throw new CommandError(`account ${a.accountId} has no user with the email ${a.email.trim()}`);
    const r = await sendSetPasswordLink(db, a.accountId, user.id, { actor: OPERATOR, role: 'operator' }, loadConfig());
    if (a.json) return done(json({ user_id: r.user.id, email: r.user.email, set_password_url: r.link, emailed: r.emailed }));
    const emailed = r.emailed ? '\nthe link was also emailed to them' : '';
    return done(`${r.user.email} (user ${r.user.id}) sets a new password here (one time, 7 days; not shown again; earlier links no longer work):\n${r.link}${emailed}`);
  }
  await removeUser(db, a.accountId, a.userId, OPERATOR);
  return done(`removed user ${a.userId}; their hub sessions ended`);
}

export const USERS: OperatorCommand<UsersArgs> = { usage: USERS_USAGE, parse, run: (db, a) => run(db, a) };

/** `users …` with the arguments after "users". */
export function usersCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(USERS, db, args, ctx);
}
