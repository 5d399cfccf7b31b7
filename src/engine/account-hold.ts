// The account-state rule (src/accounts/activity.ts) inside the engine's executors: every fenced
// transaction (the one each step, send and charge is made in) re-reads the account's state after
// locking its run; a run whose account is no longer active leaves that transaction without
// writing, and is then held (suspended or lapsed: it keeps its place and resumes when the account
// is active again) or ended with the account's other work (closed).
import type { Queryable } from '../db/db.js';
import { readAccountActivity } from '../accounts/store.js';

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
