// `switchboard keys create|list|revoke|set-cap|update|roll`: what the hub's Account → API keys
// page does, through the same services (src/services/keys/manage.ts), audited as the operator.
// A key's value is printed once, at creation or roll; listings show only its display prefix.
import type { Db } from '../db/db.js';
import { ApiError } from '../domain/errors.js';
import { ROLL_GRACES, type RollGrace } from '../domain/hub.js';
import { keyStateOf } from '../domain/key.js';
import { listKeys } from '../keys/store.js';
import { OPERATOR } from '../services/audit/service.js';
import { createAccountKey, revokeAccountKey, rollAccountKey, updateAccountKey } from '../services/keys/manage.js';
import type { Scope } from '../lib/scopes.js';
import { getAccount } from '../accounts/store.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { intArg, isoDateArg, nameArg, parseCommandArgs, scopesArg, uuidArg, show } from './args.js';
import { CommandError, UsageError, done, iso, json, table, type CommandContext, type CommandResult } from './result.js';

export const KEYS_USAGE = `Usage:
  switchboard keys create --account ID --by USER_ID --name NAME [--scopes a,b] [--expires ISO] [--cap MICROS] [--json]
  switchboard keys list --account ID [--json]
  switchboard keys revoke --account ID --key KEY_ID
  switchboard keys set-cap --account ID --key KEY_ID --cap MICROS|none
  switchboard keys update --account ID --key KEY_ID [--name NAME] [--cap MICROS|none]
  switchboard keys roll --account ID --key KEY_ID [--grace none|1h|24h|7d] [--json]

  --by       an owner or admin user of the account (the key's creator)
  --scopes   comma-separated; none by default
  --expires  ISO 8601 date or date-time with a zone, in the future
  --cap      monthly spend cap in micros (whole number >= 1); set-cap and update take "none" to remove it
  --grace    how long the rolled key keeps working (default 24h); then it answers 401 api_key_expired`;

const MAX_MICROS = Number.MAX_SAFE_INTEGER;

type KeysArgs =
  | { action: 'create'; accountId: string; by: string; name: string; scopes: Scope[]; expiresAt: Date | null; cap: number | null; json: boolean }
  | { action: 'list'; accountId: string; json: boolean }
  | { action: 'revoke'; accountId: string; keyId: string }
  | { action: 'set-cap'; accountId: string; keyId: string; cap: number | null }
  | { action: 'update'; accountId: string; keyId: string; name?: string; cap?: number | null }
  | { action: 'roll'; accountId: string; keyId: string; grace: RollGrace; json: boolean };

const capArg = (raw: string): number | null => (raw === 'none' ? null : intArg('cap', raw, 1, MAX_MICROS));

/** The default grace: a day lets every deployment pick up the new key; the hub asks each time. */
const DEFAULT_GRACE: RollGrace = '24h';

function parse(args: readonly string[]): KeysArgs {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const p = parseCommandArgs(rest, { strings: ['account', 'by', 'name', 'scopes', 'expires', 'cap'], flags: ['json'] });
      const expires = p.strings.get('expires');
      const expiresAt = expires === undefined ? null : isoDateArg('expires', expires);
      // A key born expired would be refused on its first request: almost certainly a typo.
      if (expiresAt && expiresAt.getTime() <= Date.now()) throw new UsageError(`--expires must be in the future, got ${show(expires!)}`);
      const cap = p.strings.get('cap');
      return {
        action,
        accountId: uuidArg(p, 'account'),
        by: uuidArg(p, 'by'),
        name: nameArg(p, 'name'),
        scopes: scopesArg(p.strings.get('scopes') ?? ''),
        expiresAt,
        cap: cap === undefined ? null : intArg('cap', cap, 1, MAX_MICROS),
        json: p.flags.has('json'),
      };
    }
    case 'list': {
      const p = parseCommandArgs(rest, { strings: ['account'], flags: ['json'] });
      return { action, accountId: uuidArg(p, 'account'), json: p.flags.has('json') };
    }
    case 'revoke': {
      const p = parseCommandArgs(rest, { strings: ['account', 'key'] });
      return { action, accountId: uuidArg(p, 'account'), keyId: uuidArg(p, 'key') };
    }
    case 'set-cap': {
      const p = parseCommandArgs(rest, { strings: ['account', 'key', 'cap'] });
      const accountId = uuidArg(p, 'account');
      const keyId = uuidArg(p, 'key');
      const raw = p.strings.get('cap');
      if (raw === undefined) throw new UsageError('--cap is required (a whole number of micros >= 1, or "none")');
      return { action, accountId, keyId, cap: capArg(raw) };
    }
    case 'update': {
      const p = parseCommandArgs(rest, { strings: ['account', 'key', 'name', 'cap'] });
      const accountId = uuidArg(p, 'account');
      const keyId = uuidArg(p, 'key');
      const name = p.strings.has('name') ? nameArg(p, 'name') : undefined;
      const raw = p.strings.get('cap');
      if (name === undefined && raw === undefined) throw new UsageError('update needs --name, --cap or both');
      return { action, accountId, keyId, name, ...(raw === undefined ? {} : { cap: capArg(raw) }) };
    }
    case 'roll': {
      const p = parseCommandArgs(rest, { strings: ['account', 'key', 'grace'], flags: ['json'] });
      const grace = p.strings.get('grace') ?? DEFAULT_GRACE;
      if (!(ROLL_GRACES as string[]).includes(grace)) throw new UsageError(`--grace must be one of ${ROLL_GRACES.join(', ')}, got ${show(grace)}`);
      return { action, accountId: uuidArg(p, 'account'), keyId: uuidArg(p, 'key'), grace: grace as RollGrace, json: p.flags.has('json') };
    }
    case undefined:
      throw new UsageError('keys needs an action: create, list, revoke, set-cap, update or roll');
    default:
      throw new UsageError(`unknown keys action ${show(action)}`);
  }
}

async function requireAccount(db: Db, accountId: string): Promise<void> {
  if (!(await getAccount(db, accountId))) throw new CommandError(`no account ${accountId}`);
}

const capText = (cap: number | null) => (cap === null ? 'none' : `${cap} micros`);

/**
 * A missing record in the CLI's words, which the service cannot know: an unknown account is named
 * as such, an unknown key with its account. Every other refusal is execute()'s (refusal.ts).
 */
async function unknownRecord(db: Db, a: { accountId: string; keyId?: string }, err: unknown): Promise<never> {
  if (!(err instanceof ApiError) || err.code !== 'resource_not_found') throw err;
  await requireAccount(db, a.accountId);
  if (a.keyId) throw new CommandError(`no key ${a.keyId} in account ${a.accountId}`);
  throw err;
}

async function run(db: Db, a: KeysArgs): Promise<CommandResult> {
  try {
    return await act(db, a);
  } catch (err) {
    return unknownRecord(db, a, err);
  }
}

async function act(db: Db, a: KeysArgs): Promise<CommandResult> {
  switch (a.action) {
    case 'create': {
      // The service locks the account row, so concurrent creations cannot pass the limit of 10 together.
      const key = await createAccountKey(
        db,
        a.accountId,
        { createdBy: a.by, name: a.name, scopes: a.scopes, expiresAt: a.expiresAt, monthlySpendCapMicros: a.cap },
        OPERATOR,
      );
      if (a.json) {
        return done(
          json({
            id: key.id,
            key: key.value,
            prefix: key.prefix,
            account_id: a.accountId,
            name: a.name,
            scopes: a.scopes,
            expires_at: iso(a.expiresAt),
            monthly_spend_cap_micros: a.cap,
          }),
        );
      }
      return done(
        `created key ${key.id} (${show(a.name)}) in account ${a.accountId}\n` +
          `scopes: ${a.scopes.join(', ') || '(none)'}; expires: ${iso(a.expiresAt) ?? 'never'}; monthly spend cap: ${capText(a.cap)}\n` +
          `key: ${key.value}\n` +
          'This is the only time the key value is shown: store it now.',
      );
    }
    case 'list': {
      await requireAccount(db, a.accountId);
      const keys = await listKeys(db, a.accountId);
      const now = Date.now();
      if (a.json) {
        return done(
          json({
            account_id: a.accountId,
            keys: keys.map((k) => ({
              id: k.id,
              name: k.name,
              prefix: k.prefix,
              state: keyStateOf(k, now),
              scopes: k.scopes,
              monthly_spend_cap_micros: k.monthly_spend_cap_micros === null ? null : Number(k.monthly_spend_cap_micros),
              expires_at: iso(k.expires_at),
              revoked_at: iso(k.revoked_at),
              replaced_by: k.replaced_by,
              created_by: k.created_by,
              created_at: iso(k.created_at),
              last_used_at: iso(k.last_used_at),
            })),
          }),
        );
      }
      if (!keys.length) return done(`account ${a.accountId} has no keys`);
      const rows = keys.map((k) => [
        k.id,
        k.prefix + '…',
        keyStateOf(k, now),
        k.monthly_spend_cap_micros === null ? 'none' : String(k.monthly_spend_cap_micros),
        iso(k.expires_at) ?? 'never',
        iso(k.last_used_at) ?? 'never',
        k.scopes.join(',') || '-',
        k.name,
      ]);
      return done(table(['ID', 'PREFIX', 'STATE', 'CAP_MICROS', 'EXPIRES', 'LAST_USED', 'SCOPES', 'NAME'], rows));
    }
    case 'revoke': {
      const { changed } = await revokeAccountKey(db, a.accountId, a.keyId, OPERATOR);
      // Revoking twice is harmless and keeps the first revocation time, so it is not an error.
      return done(changed ? `revoked key ${a.keyId}; it fails from its next request` : `key ${a.keyId} was already revoked`);
    }
    case 'set-cap': {
      await updateAccountKey(db, a.accountId, a.keyId, { monthlySpendCapMicros: a.cap }, OPERATOR);
      return done(`key ${a.keyId}: monthly spend cap ${a.cap === null ? 'removed' : `set to ${a.cap} micros`}`);
    }
    case 'update': {
      const k = await updateAccountKey(db, a.accountId, a.keyId, { name: a.name, monthlySpendCapMicros: a.cap }, OPERATOR);
      return done(`key ${a.keyId}: name ${show(k.name)}; monthly spend cap: ${capText(k.monthly_spend_cap_micros)}`);
    }
    case 'roll': {
      const r = await rollAccountKey(db, a.accountId, a.keyId, a.grace, OPERATOR);
      if (a.json) {
        return done(
          json({
            id: r.key.id,
            key: r.value,
            prefix: r.key.prefix,
            account_id: a.accountId,
            name: r.key.name,
            scopes: r.key.scopes,
            expires_at: r.key.expires_at,
            monthly_spend_cap_micros: r.key.monthly_spend_cap_micros,
            replaces: { id: r.old.id, expires_at: r.old.expires_at },
          }),
        );
      }
      return done(
        `rolled key ${r.old.id}: new key ${r.key.id} (${show(r.key.name)}), same scopes, cap and expiry\n` +
          `the old key works until ${r.old.expires_at}, then answers 401 api_key_expired\n` +
          `key: ${r.value}\n` +
          'This is the only time the key value is shown: store it now.',
      );
    }
  }
}

export const KEYS: OperatorCommand<KeysArgs> = { usage: KEYS_USAGE, parse, run: (db, a) => run(db, a) };

/** `keys …` with the arguments after "keys". */
export function keysCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(KEYS, db, args, ctx);
}
