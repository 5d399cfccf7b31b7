// `switchboard keys create|list|revoke|set-cap`: what the hub's Account → API keys page does.
// A key's value is printed once, at creation; listings show only its display prefix.
import type { Db } from '../db/db.js';
import { listKeys, revokeKey, setKeyCap, type KeyListRow } from '../keys/store.js';
import { createKey } from '../services/keys/service.js';
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

  --by       an owner or admin user of the account (the key's creator)
  --scopes   comma-separated; none by default
  --expires  ISO 8601 date or date-time with a zone, in the future
  --cap      monthly spend cap in micros (whole number >= 1); set-cap takes "none" to remove it`;

const MAX_MICROS = Number.MAX_SAFE_INTEGER;

type KeysArgs =
  | { action: 'create'; accountId: string; by: string; name: string; scopes: Scope[]; expiresAt: Date | null; cap: number | null; json: boolean }
  | { action: 'list'; accountId: string; json: boolean }
  | { action: 'revoke'; accountId: string; keyId: string }
  | { action: 'set-cap'; accountId: string; keyId: string; cap: number | null };

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
      return { action, accountId, keyId, cap: raw === 'none' ? null : intArg('cap', raw, 1, MAX_MICROS) };
    }
    case undefined:
      throw new UsageError('keys needs an action: create, list, revoke or set-cap');
    default:
      throw new UsageError(`unknown keys action ${show(action)}`);
  }
}

export function keyState(k: Pick<KeyListRow, 'revoked_at' | 'expires_at'>, now = Date.now()): 'active' | 'revoked' | 'expired' {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && k.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

async function requireAccount(db: Db, accountId: string): Promise<void> {
  if (!(await getAccount(db, accountId))) throw new CommandError(`no account ${accountId}`);
}

const capText = (cap: number | null) => (cap === null ? 'none' : `${cap} micros`);

async function run(db: Db, a: KeysArgs): Promise<CommandResult> {
  switch (a.action) {
    case 'create': {
      // createKey locks the account row, so concurrent creations cannot pass the limit of 10 together.
      const key = await db.transaction((tx) =>
        createKey(tx, {
          accountId: a.accountId,
          createdBy: a.by,
          name: a.name,
          scopes: a.scopes,
          expiresAt: a.expiresAt,
          monthlySpendCapMicros: a.cap,
        }),
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
              state: keyState(k, now),
              scopes: k.scopes,
              monthly_spend_cap_micros: k.monthly_spend_cap_micros === null ? null : Number(k.monthly_spend_cap_micros),
              expires_at: iso(k.expires_at),
              revoked_at: iso(k.revoked_at),
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
        keyState(k, now),
        k.monthly_spend_cap_micros === null ? 'none' : String(k.monthly_spend_cap_micros),
        iso(k.expires_at) ?? 'never',
        iso(k.last_used_at) ?? 'never',
        k.scopes.join(',') || '-',
        k.name,
      ]);
      return done(table(['ID', 'PREFIX', 'STATE', 'CAP_MICROS', 'EXPIRES', 'LAST_USED', 'SCOPES', 'NAME'], rows));
    }
    case 'revoke': {
      const outcome = await revokeKey(db, a.accountId, a.keyId);
      if (outcome === 'missing') {
        await requireAccount(db, a.accountId);
        throw new CommandError(`no key ${a.keyId} in account ${a.accountId}`);
      }
      // Revoking twice is harmless and keeps the first revocation time, so it is not an error.
      return done(outcome === 'revoked' ? `revoked key ${a.keyId}; it fails from its next request` : `key ${a.keyId} was already revoked`);
    }
    case 'set-cap': {
      if (!(await setKeyCap(db, a.accountId, a.keyId, a.cap))) {
        await requireAccount(db, a.accountId);
        throw new CommandError(`no key ${a.keyId} in account ${a.accountId}`);
      }
      return done(`key ${a.keyId}: monthly spend cap ${a.cap === null ? 'removed' : `set to ${a.cap} micros`}`);
    }
  }
}

export const KEYS: OperatorCommand<KeysArgs> = { usage: KEYS_USAGE, parse, run: (db, a) => run(db, a) };

/** `keys …` with the arguments after "keys". */
export function keysCommand(db: Db, args: readonly string[], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(KEYS, db, args, ctx);
}
