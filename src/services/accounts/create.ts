// A new account and its first owner: the hub's first-run set-up and `switchboard account create`.
// One rule for both: a valid name and email, the owner's password (when given) at least
// MIN_PASSWORD_LENGTH characters and stored as scrypt; the audit log records who created it.
import type { Queryable } from '../../db/db.js';
import { ACCOUNT_TIERS, type Tier } from '../../domain/account.js';
import { MIN_PASSWORD_LENGTH } from '../../domain/hub.js';
import { checkEmail } from '../../lib/email.js';
import { uuidv7 } from '../../lib/ids.js';
import { hashPassword } from '../../lib/password.js';
import { insertNewAccount, insertUser } from '../../accounts/store.js';
import { recordAudit, type Actor } from '../audit/service.js';

/** A refused input; `field` names it (the hub answers 422 invalid_field with that param). */
export class AccountInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface NewAccountInput {
  name: string;
  tier?: Tier;
  ownerEmail: string;
  ownerName?: string;
  /** Null: the owner sets it through a one-time link (`account create`). */
  ownerPassword: string | null;
  /** The credit the account starts with (config startingCreditMicros). */
  creditMicros: number;
}

export function checkPassword(password: string, field = 'password'): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) throw new AccountInputError(field, `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > 1024) throw new AccountInputError(field, 'The password is too long (at most 1,024 characters).');
}

/** Validates, then writes the account, its owner and the audit entry in `tx`. */
export async function createAccountWithOwner(tx: Queryable, input: NewAccountInput, actor: Actor): Promise<{ accountId: string; ownerId: string }> {
  const name = input.name.trim();
  if (!name || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) throw new AccountInputError('name', 'The account name must be 1 to 200 characters on one line.');
  const tier = input.tier ?? 'team';
  if (!ACCOUNT_TIERS.includes(tier)) throw new AccountInputError('tier', `The tier must be one of ${ACCOUNT_TIERS.join(', ')}.`);
  const email = checkEmail(input.ownerEmail.trim());
  if (!email.ok) throw new AccountInputError('owner_email', `The owner's email is not valid: ${email.problem}.`);
  if (input.ownerPassword !== null) checkPassword(input.ownerPassword);
  const passwordHash = input.ownerPassword === null ? null : await hashPassword(input.ownerPassword);
  const accountId = uuidv7();
  const ownerId = uuidv7();
  await insertNewAccount(tx, accountId, name, tier, input.creditMicros);
  await insertUser(tx, { accountId, id: ownerId, email: email.email, name: (input.ownerName ?? '').trim(), role: 'owner', passwordHash });
  await recordAudit(tx, { accountId, actor, action: 'account.created', objectKind: 'account', objectId: accountId, detail: { name, owner_email: email.email, credit_micros: input.creditMicros } });
  return { accountId, ownerId };
}
