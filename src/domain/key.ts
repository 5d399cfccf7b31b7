// API keys: who may create them, how many an account may hold, and the states of the idempotency
// record a key's write requests leave behind.

// The scopes (plain data in lib/, which the keys services read) stated here too, so the schema
// modules take every enum from src/domain.
export { SCOPES, type Scope } from '../lib/scopes.js';

/** docs/architecture.md §2: at most this many active (not revoked, not expired) keys per account. */
export const MAX_ACTIVE_KEYS = 10;

/** A key in a listing: usable (active, or rolled and in its grace period) or refused for good. */
export const KEY_STATES = ['active', 'rolled', 'expired', 'revoked'] as const;
export type KeyState = (typeof KEY_STATES)[number];

/** Revocation wins over expiry; a rolled key is 'rolled' only while its grace lasts. */
export function keyStateOf(
  k: { revoked_at: Date | null; expires_at: Date | null; replaced_by?: string | null },
  now = Date.now(),
): KeyState {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && k.expires_at.getTime() <= now) return 'expired';
  return k.replaced_by ? 'rolled' : 'active';
}

/** Longest key name, in characters. */
export const MAX_KEY_NAME = 200;

/** Only an owner or admin of the account creates keys (a member cannot; a role the catalogue
 * does not know, read as a stored string, is neither). */
export function mayCreateKeys(role: string): boolean {
  return role === 'owner' || role === 'admin';
}

/** An idempotency record is `in_progress` while its request runs, `done` once the answer is stored. */
export const IDEMPOTENCY_STATUSES = ['in_progress', 'done'] as const;
export type IdempotencyStatus = (typeof IDEMPOTENCY_STATUSES)[number];
