// Creating an API key: the one place its rules hold, for the operator CLI, the fixture loader and
// the hub (spec "Authentication": keys are created by an owner or admin; at most 10 active).
import type { Queryable } from '../../db/db.js';
import { MAX_ACTIVE_KEYS, mayCreateKeys } from '../../domain/key.js';
import { generateKey } from '../../lib/api-keys.js';
import { uuidv7 } from '../../lib/ids.js';
import { countActiveKeys, insertKey, lockAccountForKeys, userRole } from '../../keys/store.js';

/** A key rule refused the creation; the message says which and why. */
export class KeyRuleError extends Error {}

/** The account already holds MAX_ACTIVE_KEYS active keys. */
export class KeyLimitError extends KeyRuleError {}

export interface CreateKeyInput {
  accountId: string;
  /** The owner or admin user creating it. */
  createdBy: string;
  name: string;
  scopes: string[];
  expiresAt: Date | null;
  monthlySpendCapMicros: number | null;
  /** Fixtures load revoked keys as they are. */
  revoked?: boolean;
  /** The key being rolled: it does not count toward the limit (its successor takes its place). */
  replacing?: string;
}

export interface CreatedKey {
  id: string;
  value: string;
  prefix: string;
}

/**
 * Creates a key under a lock on the account row, so two concurrent creations cannot both pass
 * the limit of 10 active keys. Must run inside a transaction.
 */
export async function createKey(tx: Queryable, input: CreateKeyInput): Promise<CreatedKey> {
  if (!(await lockAccountForKeys(tx, input.accountId))) throw new KeyRuleError(`no account ${input.accountId}`);
  const role = await userRole(tx, input.accountId, input.createdBy);
  if (role === null) throw new KeyRuleError(`no user ${input.createdBy} in account ${input.accountId}`);
  if (!mayCreateKeys(role)) {
    throw new KeyRuleError(`only an owner or admin of the account creates keys; ${input.createdBy} is a ${role}`);
  }
  if (!input.revoked && (await countActiveKeys(tx, input.accountId, input.replacing ?? null)) >= MAX_ACTIVE_KEYS) {
    throw new KeyLimitError(`the account already has ${MAX_ACTIVE_KEYS} active keys, the most it may have; revoke one first`);
  }
  const key = generateKey();
  const id = uuidv7();
  await insertKey(tx, {
    id,
    accountId: input.accountId,
    hash: key.hash,
    prefix: key.prefix,
    name: input.name,
    scopes: input.scopes,
    expiresAt: input.expiresAt,
    monthlySpendCapMicros: input.monthlySpendCapMicros,
    revokedAt: input.revoked ? new Date() : null,
    createdBy: input.createdBy,
  });
  return { id, value: key.value, prefix: key.prefix };
}
