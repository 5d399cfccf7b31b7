// An account's keys as an owner or admin manages them, in the hub (Account → API keys) and through
// the operator CLI: list, create, rename and re-cap, revoke, roll. Each change and its audit entry
// commit in one transaction; refusals are ApiErrors the hub answers as they are and the CLI prints.
// Audit entries name the key and what changed, never a key value. A change the request pipeline
// reads (name, revocation, a roll's expiry) is invalidated in every process's key cache after it
// commits and before the call returns (src/keys/invalidate.ts), so it acts from the next request.
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, found } from '../../domain/errors.js';
import { ROLL_GRACE, type RollGrace } from '../../domain/hub.js';
import { keyStateOf, MAX_ACTIVE_KEYS, MAX_KEY_NAME, type KeyState } from '../../domain/key.js';
import { isScope, SCOPES, type Scope } from '../../lib/scopes.js';
import { lockAccountForKeys } from '../../keys/store.js';
import { invalidateAuth } from '../../keys/invalidate.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { createKey, KeyLimitError, type CreatedKey } from './service.js';
import { getManagedKey, listManagedKeys, lockKey, markRevoked, markRolled, setKeyCapById, setKeyName, type ManagedKeyRow } from './store.js';

/** A key as the hub lists it (the value is never stored, so never shown again). */
export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  state: KeyState;
  created_by: { id: string; name: string; email: string };
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  monthly_spend_cap_micros: number | null;
  spent_this_month_micros: number;
  revoked_at: string | null;
  replaced_by: string | null;
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
const micros = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function toKeyView(r: ManagedKeyRow, now = Date.now()): KeyView {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    state: keyStateOf(r, now),
    created_by: { id: r.created_by, name: r.created_by_name, email: r.created_by_email },
    created_at: r.created_at.toISOString(),
    last_used_at: isoOrNull(r.last_used_at),
    expires_at: isoOrNull(r.expires_at),
    monthly_spend_cap_micros: micros(r.monthly_spend_cap_micros),
    spent_this_month_micros: micros(r.spent_micros) ?? 0,
    revoked_at: isoOrNull(r.revoked_at),
    replaced_by: r.replaced_by,
  };
}

export async function listAccountKeys(db: Db, accountId: string): Promise<KeyView[]> {
  const now = Date.now();
  return (await listManagedKeys(db, accountId)).map((r) => toKeyView(r, now));
}

async function view(db: Queryable, accountId: string, keyId: string): Promise<KeyView> {
  return toKeyView(found(await getManagedKey(db, accountId, keyId), 'API key'));
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > MAX_KEY_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new ApiError('invalid_field', `The name must be 1 to ${MAX_KEY_NAME} characters on one line.`, { param: 'name' });
  }
  return name;
}

function checkScopes(raw: readonly string[]): Scope[] {
  const bad = raw.find((s) => !isScope(s));
  if (bad !== undefined) throw new ApiError('invalid_field', `Unknown scope ${JSON.stringify(bad)}; scopes are ${SCOPES.join(', ')}.`, { param: 'scopes' });
  return [...new Set(raw as Scope[])];
}

function checkCap(cap: number | null): number | null {
  if (cap !== null && (!Number.isSafeInteger(cap) || cap < 1)) {
    throw new ApiError('invalid_field', 'The monthly cap is a whole number of micros, at least 1 (or null for none).', { param: 'monthly_spend_cap_micros' });
  }
  return cap;
}

export interface NewKeyInput {
  /** The owner or admin the key is created by (the hub's user; the CLI's --by). */
  createdBy: string;
  name: string;
  scopes: readonly string[];
  expiresAt: Date | null;
  monthlySpendCapMicros: number | null;
}

export interface NewKey extends CreatedKey {
  key: KeyView;
}

function limitReached(): ApiError {
  return new ApiError('key_limit_reached', `The account already has ${MAX_ACTIVE_KEYS} active keys, the most it may have; revoke one first.`);
}

export async function createAccountKey(db: Db, accountId: string, input: NewKeyInput, actor: Actor): Promise<NewKey> {
  const name = checkName(input.name);
  const scopes = checkScopes(input.scopes);
  const cap = checkCap(input.monthlySpendCapMicros);
  // A key born expired would be refused on its first request: almost certainly a mistake.
  if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) throw new ApiError('invalid_field', 'The expiry must be in the future.', { param: 'expires_at' });
  return db.transaction(async (tx) => {
    let created: CreatedKey;
    try {
      created = await createKey(tx, { accountId, createdBy: input.createdBy, name, scopes, expiresAt: input.expiresAt, monthlySpendCapMicros: cap });
    } catch (err) {
      if (err instanceof KeyLimitError) throw limitReached();
      throw err;
    }
    await recordAudit(tx, {
      accountId, actor, action: 'key.created', objectKind: 'api_key', objectId: created.id,
      detail: { name, prefix: created.prefix, scopes, expires_at: isoOrNull(input.expiresAt), monthly_spend_cap_micros: cap },
    });
    return { ...created, key: await view(tx, accountId, created.id) };
  });
}

export interface KeyChanges {
  name?: string;
  /** undefined leaves the cap; null removes it. Lowering is allowed: spend already made stays. */
  monthlySpendCapMicros?: number | null;
}

export async function updateAccountKey(db: Db, accountId: string, keyId: string, changes: KeyChanges, actor: Actor): Promise<KeyView> {
  const name = changes.name === undefined ? undefined : checkName(changes.name);
  const cap = changes.monthlySpendCapMicros === undefined ? undefined : checkCap(changes.monthlySpendCapMicros);
  const updated = await db.transaction(async (tx) => {
    const old = found(await lockKey(tx, accountId, keyId), 'API key');
    const oldCap = micros(old.monthly_spend_cap_micros);
    const detail: Record<string, unknown> = {};
    if (name !== undefined && name !== old.name) {
      await setKeyName(tx, keyId, name);
      detail.name = { from: old.name, to: name };
    }
    if (cap !== undefined && cap !== oldCap) {
      await setKeyCapById(tx, keyId, cap);
      detail.monthly_spend_cap_micros = { from: oldCap, to: cap };
    }
    // Nothing changed, nothing to record: saving the form twice leaves one entry.
    if (Object.keys(detail).length) await recordAudit(tx, { accountId, actor, action: 'key.updated', objectKind: 'api_key', objectId: keyId, detail });
    return view(tx, accountId, keyId);
  });
  // The name is in every request's context (the cap is read by billing, not by the pipeline).
  if (name !== undefined) await invalidateAuth(db);
  return updated;
}

/** Revokes a key; revoking it again changes nothing (and records nothing). It fails from its next request. */
export async function revokeAccountKey(db: Db, accountId: string, keyId: string, actor: Actor): Promise<{ key: KeyView; changed: boolean }> {
  const revoked = await db.transaction(async (tx) => {
    const old = found(await lockKey(tx, accountId, keyId), 'API key');
    const changed = old.revoked_at === null;
    if (changed) {
      await markRevoked(tx, keyId);
      await recordAudit(tx, { accountId, actor, action: 'key.revoked', objectKind: 'api_key', objectId: keyId, detail: { name: old.name } });
    }
    return { key: await view(tx, accountId, keyId), changed };
  });
  // Also when it was revoked already: a retry after an answer lost midway finishes the invalidation.
  await invalidateAuth(db);
  return revoked;
}

export interface Rolled {
  /** The old key, now naming its successor and expiring at the end of the grace. */
  old: KeyView;
  /** The new key's value, shown once. */
  value: string;
  key: KeyView;
}

/**
 * A new key with the old one's name, scopes, cap and expiry; the old key stays valid for the
 * grace (none, 1h, 24h, 7d: ROLL_GRACE) and then answers 401 api_key_expired. Only an active key
 * rolls (409 key_not_active otherwise). The new key is the acting user's; the operator's roll
 * keeps the old key's creator.
 */
export async function rollAccountKey(db: Db, accountId: string, keyId: string, grace: RollGrace, actor: Actor): Promise<Rolled> {
  const rolled = await db.transaction(async (tx) => {
    await lockAccountForKeys(tx, accountId);
    const old = found(await lockKey(tx, accountId, keyId), 'API key');
    if (old.revoked_at || old.expired || old.replaced_by) {
      const why = old.revoked_at ? 'revoked' : old.replaced_by ? 'already rolled' : 'expired';
      throw new ApiError('key_not_active', `The key is ${why}; only an active key can be rolled.`);
    }
    // The old key leaves the count as its successor enters it, so a roll never meets the limit.
    const created = await createKey(tx, {
      accountId,
      createdBy: actor.kind === 'user' ? actor.id : old.created_by,
      name: old.name,
      scopes: old.scopes,
      expiresAt: old.expires_at,
      monthlySpendCapMicros: micros(old.monthly_spend_cap_micros),
      replacing: keyId,
    });
    const until = await markRolled(tx, keyId, created.id, ROLL_GRACE[grace]);
    await recordAudit(tx, {
      accountId, actor, action: 'key.rolled', objectKind: 'api_key', objectId: keyId,
      detail: { name: old.name, replaced_by: created.id, prefix: created.prefix, grace, old_key_expires_at: until.toISOString() },
    });
    return { old: await view(tx, accountId, keyId), value: created.value, key: await view(tx, accountId, created.id) };
  });
  // The old key's expiry moved (a grace of none ends it now); the new key was never cached.
  await invalidateAuth(db);
  return rolled;
}
