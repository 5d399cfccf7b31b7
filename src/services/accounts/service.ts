// Changing an account (`account set`, later the hub's operator pages): the change and, when it
// closes the account, the closing sweep, in one transaction that wakes every worker on commit.
import { endAccountWork, updateAccount, type AccountChanges, type EndedWork } from '../../accounts/store.js';
import type { Db } from '../../db/db.js';
import { invalidateAuth } from '../../keys/invalidate.js';
import type { AccountRow } from '../../domain/account.js';
import { notifyAllWorkers } from '../../queue/enqueue-store.js';

/** The account's fields the request pipeline reads with each key (src/keys/store.ts AuthRow). */
const AUTH_FIELDS: readonly (keyof AccountChanges)[] = ['state', 'subscription', 'api_open', 'tier', 'requests_per_minute'];

/**
 * `account set`: the changes, and when they close the account, the closing sweep in the same
 * transaction. The sweep comes first and the account row last: a step transaction locks its run
 * and then the account row (a charge), so taking them in that order too never deadlocks with one.
 * Work added between the sweep and the commit (a run started that instant) is ended by the
 * engine's sweep within a poll. Any change of state or subscription wakes the workers, so work
 * held for the account resumes at once when it is active again.
 */
export async function setAccount(db: Db, accountId: string, changes: AccountChanges): Promise<{ account: AccountRow | null; ended: EndedWork | null }> {
  const result = await db.transaction(async (tx) => {
    const ended = changes.state === 'closed' ? await endAccountWork(tx, accountId) : null;
    const account = await updateAccount(tx, accountId, changes);
    if (account && (changes.state !== undefined || changes.subscription !== undefined)) {
      await notifyAllWorkers(tx);
    }
    return { account, ended: account ? ended : null };
  }, { replayable: true, name: 'change account' });
  // After the commit, before the command answers: every process's key cache forgets the account's
  // old state, so it acts from the next request. Credit and the run limits are not in the cache.
  if (result.account && AUTH_FIELDS.some((f) => changes[f] !== undefined)) await invalidateAuth(db);
  return result;
}
