// `switchboard account create|list`: a new account with its owner (who sets a password through a
// one-time link), and every account of the store (an operator who lost the seed output finds the
// account id here). The rules are the hub's first-run set-up's (services/accounts/create.ts).
import { loadConfig } from '../config.js';
import type { Db } from '../db/db.js';
import { linkBase } from '../delivery/unsubscribe.js';
import { OPERATOR } from '../services/audit/service.js';
import { AccountInputError, createAccountWithOwner } from '../services/accounts/create.js';
import { listAccounts } from '../services/accounts/list-store.js';
import { issueSetPasswordLink } from '../services/users/links.js';
import { nameArg, parseCommandArgs, required, show } from './args.js';
import type { OperatorCommand } from './command.js';
import { UsageError, done, iso, json, table, type CommandResult } from './result.js';

export const ACCOUNT_CREATE_USAGE = `Usage:
  switchboard account create --name NAME --owner-email EMAIL [--owner-name NAME] [--json]
  switchboard account list [--json]

  create  makes the account (tier team, SWITCHBOARD_STARTING_CREDIT_MICROS of credit) and its owner,
          and prints a one-time link (good for 7 days) where the owner sets a password; the link is
          shown only this once.
  list    every account: id, name, state, tier, created, number of users.`;

export type CreateListArgs =
  | { action: 'create'; name: string; ownerEmail: string; ownerName: string; json: boolean }
  | { action: 'list'; json: boolean };

function parse(args: readonly string[]): CreateListArgs {
  const [action, ...rest] = args;
  if (action === 'create') {
    const p = parseCommandArgs(rest, { strings: ['name', 'owner-email', 'owner-name'], flags: ['json'] });
    const ownerName = p.strings.has('owner-name') ? nameArg(p, 'owner-name') : '';
    return { action, name: nameArg(p, 'name'), ownerEmail: required(p, 'owner-email'), ownerName, json: p.flags.has('json') };
  }
  if (action === 'list') {
    const p = parseCommandArgs(rest, { flags: ['json'] });
    return { action, json: p.flags.has('json') };
  }
  throw new UsageError(`unknown account action ${show(action ?? '')}`);
}

async function run(db: Db, a: CreateListArgs): Promise<CommandResult> {
  if (a.action === 'list') {
    const rows = await listAccounts(db);
    const out = rows.map((r) => ({ id: r.id, name: r.name, state: r.state, tier: r.tier, created_at: iso(r.created_at), users: r.users }));
    if (a.json) return done(json(out));
    if (!out.length) return done('no accounts yet (switchboard account create, or open the hub to set one up)');
    return done(table(['ID', 'NAME', 'STATE', 'TIER', 'CREATED', 'USERS'], out.map((r) => [r.id, r.name, r.state, r.tier, r.created_at!, String(r.users)])));
  }
  let created: { accountId: string; ownerId: string; link: string };
  const config = loadConfig();
  const base = await linkBase(db, config);
  try {
    created = await db.transaction(async (tx) => {
      const ids = await createAccountWithOwner(tx, { name: a.name, ownerEmail: a.ownerEmail, ownerName: a.ownerName, ownerPassword: null, creditMicros: config.startingCreditMicros }, OPERATOR);
      const link = await issueSetPasswordLink(tx, ids.accountId, ids.ownerId, base);
      return { ...ids, link: link.url };
    });
  } catch (err) {
    if (err instanceof AccountInputError) throw new UsageError(`--${err.field.replace(/_/g, '-')}: ${err.message}`);
    throw err;
  }
  if (a.json) return done(json({ account_id: created.accountId, owner_id: created.ownerId, set_password_url: created.link }));
  return done(
    `created account ${created.accountId} (${show(a.name)}) with owner ${created.ownerId}\n` +
      `the owner sets a password here (one time, 7 days; not shown again):\n${created.link}`,
  );
}

const ACTIONS = new Set(['create', 'list']);

/** `account` with create and list added to show/set (account.ts): those go to `base`. */
export function withCreateList<P>(base: OperatorCommand<P>): OperatorCommand<{ mine: CreateListArgs } | { other: P }> {
  return {
    usage: `${base.usage}\n${ACCOUNT_CREATE_USAGE.replace(/^Usage:\n/, '')}`,
    parse: (args) => {
      if (args[0] === undefined) throw new UsageError('account needs an action: create, list, show or set');
      return ACTIONS.has(args[0]) ? { mine: parse(args) } : { other: base.parse(args) };
    },
    run: (db, p, ctx) => ('mine' in p ? run(db, p.mine) : base.run(db, p.other, ctx)),
  };
}
