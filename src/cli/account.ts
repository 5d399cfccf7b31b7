// `switchboard account show|set`: an account's tier, state, subscription, credit, API switch and
// its "by contract" limit overrides (null = the tier's limit).
import type { Db } from '../db/db.js';
import { getAccount, type AccountChanges } from '../accounts/store.js';
import { setAccount } from '../services/accounts/service.js';
import { ACCOUNT_STATES, ACCOUNT_TIERS, SUBSCRIPTIONS, type AccountRow } from '../domain/account.js';
import { limitsFor } from '../limits/tiers.js';
import { boolArg, choiceArg, intArg, parseCommandArgs, show, uuidArg } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { CommandError, UsageError, done, iso, json, type CommandContext, type CommandResult } from './result.js';

export const ACCOUNT_USAGE = `Usage:
  switchboard account show --account ID [--json]
  switchboard account set --account ID [--tier solo|team|business|enterprise] [--state active|suspended|closed]
      [--subscription active|lapsed|ended] [--credit MICROS] [--api-open true|false]
      [--requests-per-minute N|default] [--run-starts-per-minute N|default] [--concurrent-runs N|default]

  Suspended, or a lapsed or ended subscription: the account's background work is held until it is
  active again. Closed: its runs end (workflow runs cancelled, automation runs stopped) and its
  queued messages fail, at once.
  Limit overrides are "by contract" limits meant for the enterprise tier; "default" returns to the tier's limit.`;

// The override columns are PostgreSQL integers; credit is a bigint kept below 2^53 (JS numbers).
const MAX_INT4 = 2_147_483_647;
const OVERRIDES = ['requests-per-minute', 'run-starts-per-minute', 'concurrent-runs'] as const;

type AccountArgs =
  | { action: 'show'; accountId: string; json: boolean }
  | { action: 'set'; accountId: string; changes: AccountChanges };

function parse(args: readonly string[]): AccountArgs {
  const [action, ...rest] = args;
  if (action === 'show') {
    const p = parseCommandArgs(rest, { strings: ['account'], flags: ['json'] });
    return { action, accountId: uuidArg(p, 'account'), json: p.flags.has('json') };
  }
  if (action === 'set') {
    const p = parseCommandArgs(rest, {
      strings: ['account', 'tier', 'state', 'subscription', 'credit', 'api-open', ...OVERRIDES],
    });
    const accountId = uuidArg(p, 'account');
    const s = (name: string) => p.strings.get(name);
    const changes: AccountChanges = {};
    if (s('tier') !== undefined) changes.tier = choiceArg('tier', s('tier')!, ACCOUNT_TIERS);
    if (s('state') !== undefined) changes.state = choiceArg('state', s('state')!, ACCOUNT_STATES);
    if (s('subscription') !== undefined) changes.subscription = choiceArg('subscription', s('subscription')!, SUBSCRIPTIONS);
    if (s('credit') !== undefined) changes.credit_micros = intArg('credit', s('credit')!, 0, Number.MAX_SAFE_INTEGER);
    if (s('api-open') !== undefined) changes.api_open = boolArg('api-open', s('api-open')!);
    for (const name of OVERRIDES) {
      const raw = s(name);
      if (raw === undefined) continue;
      const col = name.replace(/-/g, '_') as 'requests_per_minute' | 'run_starts_per_minute' | 'concurrent_runs';
      changes[col] = raw === 'default' ? null : intArg(name, raw, 1, MAX_INT4);
    }
    if (!Object.keys(changes).length) throw new UsageError('account set needs at least one field to change');
    return { action, accountId, changes };
  }
  if (action === undefined) throw new UsageError('account needs an action: show or set');
  throw new UsageError(`unknown account action ${show(action)}`);
}

function asJson(a: AccountRow) {
  const limits = limitsFor(a.tier, a);
  return {
    id: a.id,
    name: a.name,
    tier: a.tier,
    state: a.state,
    subscription: a.subscription,
    credit_micros: a.credit_micros,
    api_open: a.api_open,
    overrides: {
      requests_per_minute: a.requests_per_minute,
      run_starts_per_minute: a.run_starts_per_minute,
      concurrent_runs: a.concurrent_runs,
    },
    // What the rate limiter applies: the tier's limits with the overrides on top (null = no fixed limit).
    limits: {
      requests_per_minute: limits.requestsPerMinute,
      run_starts_per_minute: limits.runStartsPerMinute,
      concurrent_runs: limits.concurrentRuns,
    },
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
  };
}

function asText(a: AccountRow): string {
  const j = asJson(a);
  const limit = (name: keyof typeof j.limits) => {
    const v = j.limits[name];
    const shown = v === null ? 'by contract (no fixed limit)' : String(v);
    return j.overrides[name] === null ? `${shown} (tier)` : `${shown} (override)`;
  };
  return [
    `account ${a.id} (${show(a.name)})`,
    `tier: ${a.tier}`,
    `state: ${a.state}`,
    `subscription: ${a.subscription}`,
    `credit: ${a.credit_micros} micros`,
    `api open: ${a.api_open}`,
    `requests per minute per key: ${limit('requests_per_minute')}`,
    `run starts per minute: ${limit('run_starts_per_minute')}`,
    `concurrent runs: ${limit('concurrent_runs')}`,
    `updated: ${j.updated_at}`,
  ].join('\n');
}

async function run(db: Db, a: AccountArgs): Promise<CommandResult> {
  if (a.action === 'show') {
    const acct = await getAccount(db, a.accountId);
    if (!acct) throw new CommandError(`no account ${a.accountId}`);
    return done(a.json ? json(asJson(acct)) : asText(acct));
  }
  // Closing also ends the account's work, in the same transaction (src/accounts/store.ts).
  const { account: acct, ended } = await setAccount(db, a.accountId, a.changes);
  if (!acct) throw new CommandError(`no account ${a.accountId}`);
  const hasOverride = acct.requests_per_minute !== null || acct.run_starts_per_minute !== null || acct.concurrent_runs !== null;
  // Overrides are contract terms of the enterprise tier; other tiers may carry them (a migration
  // between plans, a trial) but the operator should notice.
  const note =
    hasOverride && acct.tier !== 'enterprise'
      ? `note: limit overrides are "by contract" limits meant for the enterprise tier; account ${acct.id} is on the ${acct.tier} tier (applied anyway)`
      : '';
  const closed = ended
    ? `\nclosed: ${ended.workflowRuns} workflow runs cancelled, ${ended.automationRuns} automation runs stopped, ${ended.messages} queued messages failed`
    : '';
  return done(`updated account ${acct.id}: ${describe(a.changes)}\n` + asText(acct) + closed, note);
}

function describe(c: AccountChanges): string {
  return Object.entries(c)
    .map(([k, v]) => `${k}=${v === null ? 'default' : String(v)}`)
    .join(', ');
}

export const ACCOUNT: OperatorCommand<AccountArgs> = { usage: ACCOUNT_USAGE, parse, run: (db, a) => run(db, a) };

/** `account …` with the arguments after "account". */
export function accountCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(ACCOUNT, db, args, ctx);
}
