// API keys: who may create them, how many an account may hold, and the states of the idempotency
// record a key's write requests leave behind.
import type { Role } from './account.js';

/** DESIGN 1: at most this many active (not revoked, not expired) keys per account. */
export const MAX_ACTIVE_KEYS = 10;

/** Only an owner or admin of the account creates keys (a member cannot). */
export function mayCreateKeys(role: Role | string): boolean {
  return role === 'owner' || role === 'admin';
}

/** An idempotency record is `in_progress` while its request runs, `done` once the answer is stored. */
export const IDEMPOTENCY_STATUSES = ['in_progress', 'done'] as const;
export type IdempotencyStatus = (typeof IDEMPOTENCY_STATUSES)[number];
