// The account-state rule (src/accounts/activity.ts) inside the engine's executors: every fenced
// transaction (the one each step, send and charge is made in) re-reads the account's state after
// locking its run; a run whose account is no longer active leaves that transaction without
// writing, and is then held (suspended or lapsed: it keeps its place and resumes when the account
// is active again) or ended with the account's other work (closed).
import type { Db, Queryable } from '../db/db.js';
import { endClosedAccountWork, readAccountActivity } from '../accounts/store.js';
import { LeaseLost, type Lease } from '../queue/lease.js';
import type { Fence } from '../queue/queue.js';

/** The summary a held workflow run shows until it resumes. */
export const HELD_SUMMARY = 'Held: the account is not active';

export class AccountNotActive extends Error {
  constructor(readonly activity: 'held' | 'closed') {
    super(activity === 'closed' ? 'the account is closed' : 'the account is not active');
    this.name = 'AccountNotActive';
  }
}

/** Throws AccountNotActive unless the account may work, as committed now. */
export async function assertAccountActive(tx: Queryable, accountId: string): Promise<void> {
  const activity = await readAccountActivity(tx, accountId);
  if (activity !== 'active') throw new AccountNotActive(activity);
}

/** Why an execution stopped early: `closed` = the account's work (this run's too) was ended. */
export type Interruption = 'lost' | 'held' | 'closed';

/**
 * An execution that threw: LeaseLost (the worker lost the run) → lost. AccountNotActive (its
 * transaction rolled back, nothing written) → a closed account's work is ended, this run
 * included; otherwise `hold` keeps the run where it stood with no lease, and the claim skips it
 * until the account is active again. Anything else is rethrown (a store error: the engine
 * releases the run for a retry).
 */
export async function interruption(err: unknown, db: Db, lease: Lease, hold: (db: Queryable, f: Fence) => Promise<boolean>): Promise<Interruption> {
  if (err instanceof LeaseLost) {
    lease.lose(err.message);
    return 'lost';
  }
  if (!(err instanceof AccountNotActive)) throw err;
  const { accountId } = lease.fence;
  lease.stop();
  if ((await readAccountActivity(db, accountId)) === 'closed' && (await endClosedAccountWork(db, accountId))) {
    lease.lose('the account is closed');
    return 'closed';
  }
  const held = await hold(db, lease.fence);
  lease.lose(held ? 'the account is not active' : 'the lease was lost');
  return held ? 'held' : 'lost';
}
