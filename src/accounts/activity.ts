// What an account's state lets its background work do: the one rule the engine, the sender, the
// schedules and the inbound routes (webhooks, inbound SMS) follow, so that an account the API
// refuses is refused everywhere (issue 10).
//
// - active (state active, subscription active): everything proceeds.
// - held (state suspended, or a lapsed or ended subscription): nothing of the account is claimed
//   (workflow runs, automation runs, outbox messages), schedules do not fire (a missed tick is
//   skipped, not queued up), inbound requests get the API's 403; all of it resumes where it stood
//   once the account is active again.
// - closed (state closed): non-final runs end (workflow runs `cancelled`, automation runs
//   `stopped`, with the reason), queued messages end `failed` ("account closed"), nothing is
//   billed again, inbound requests get 403 account_closed.
import type { AccountState, Subscription } from './store.js';

export const ACCOUNT_ACTIVITIES = ['active', 'held', 'closed'] as const;
export type AccountActivity = (typeof ACCOUNT_ACTIVITIES)[number];

export function accountActivity(state: AccountState, subscription: Subscription): AccountActivity {
  if (state === 'closed') return 'closed';
  if (state === 'suspended' || subscription !== 'active') return 'held';
  return 'active';
}

/** SQL condition, over an `accounts` row aliased `alias`, that the account's work may proceed. */
export function accountMayWorkSql(alias: string): string {
  return `(${alias}.state = 'active' and ${alias}.subscription = 'active')`;
}

/** The reason recorded on work ended because its account was closed. */
export const ACCOUNT_CLOSED_REASON = 'Account closed';
