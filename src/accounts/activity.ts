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
import type { AccountState, Subscription } from '../domain/account.js';

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

/** SQL condition, over an `accounts` row aliased `alias`, that the account is closed. */
export function accountClosedSql(alias: string): string {
  return `(${alias}.state = 'closed')`;
}

/** The reason recorded on work ended because its account was closed. */
export const ACCOUNT_CLOSED_REASON = 'Account closed';
/** A workflow run ended because its account was closed (runs carry a summary, not an error). */
export const ACCOUNT_CLOSED_SUMMARY = 'Cancelled: account closed';
/** An outbox message ended because its account was closed. */
export const ACCOUNT_CLOSED_MESSAGE_ERROR = 'account closed';

/** The refusals an account's state gives a request; the HTTP layer turns each into its 403. */
export type AccountRefusal = 'account_suspended' | 'account_closed' | 'subscription_inactive';

/**
 * The API's rule (src/http/pipeline.ts), shared with the routes outside /v1 (webhooks): a
 * suspended or closed account is refused everything; a lapsed or ended subscription is refused
 * writes (reads stay open, the account is read-only). null = allowed.
 */
export function accountRefusal(state: AccountState, subscription: Subscription, write: boolean): AccountRefusal | null {
  if (state === 'suspended') return 'account_suspended';
  if (state === 'closed') return 'account_closed';
  if (write && subscription !== 'active') return 'subscription_inactive';
  return null;
}
