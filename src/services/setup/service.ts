// The hub's first-run set-up: while the store has no account, the first account and its owner may
// be created without signing in. `serve` prints a one-time token at start; a set-up that does not
// come straight from a loopback peer must carry it, so a fresh server reachable from a network
// cannot be claimed by whoever finds it first. Set-ups are serialised by a store-wide lock and
// re-check "no account yet" under it: two at once create one account, the other gets setup_done.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LOCKS, type Db } from '../../db/db.js';
import { anyAccount } from '../../accounts/store.js';
import { ApiError } from '../../domain/errors.js';
import { createAccountWithOwner } from '../accounts/create.js';
import { deleteSetupTokens, insertSetupTokenHash, setupTokenHashes } from './store.js';

const hashOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Whether set-up is still open (the store holds no account). */
export async function setupNeeded(db: Db): Promise<boolean> {
  return !(await anyAccount(db));
}

/** A new set-up token for serve to print, its hash stored; null when set-up is over. */
export async function issueSetupToken(db: Db): Promise<string | null> {
  if (!(await setupNeeded(db))) return null;
  const token = randomBytes(24).toString('base64url');
  await insertSetupTokenHash(db, hashOf(token));
  return token;
}

/** Whether `token` is one serve printed (constant-time against every stored hash). */
export async function setupTokenValid(db: Db, token: string): Promise<boolean> {
  const h = hashOf(token);
  let ok = false;
  for (const stored of await setupTokenHashes(db)) if (stored.length === h.length && timingSafeEqual(stored, h)) ok = true;
  return ok;
}

export const setupDone = (): ApiError => new ApiError('setup_done', 'This hub is set up already: sign in instead.');

export interface SetupInput {
  accountName: string;
  ownerName: string;
  email: string;
  password: string;
  /** The credit the account starts with (config startingCreditMicros). */
  creditMicros: number;
  /** How the audit log names who did it ("first-run set-up by <email>"). */
  actorLabel: string;
}

/** Creates the first account and its owner, or refuses with setup_done when one exists. */
export async function runFirstSetup(db: Db, input: SetupInput): Promise<{ accountId: string; ownerId: string }> {
  return db.withLock(LOCKS.setup, async (tx) => {
    if (await anyAccount(tx)) throw setupDone();
    const ids = await createAccountWithOwner(
      tx,
      { name: input.accountName, ownerEmail: input.email, ownerName: input.ownerName, ownerPassword: input.password, creditMicros: input.creditMicros },
      { kind: 'operator', label: input.actorLabel },
    );
    await deleteSetupTokens(tx);
    return ids;
  });
}
