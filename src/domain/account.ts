// Accounts and their users: the tiers, states and subscriptions an account can be in, the roles a
// user can hold, and the account row. What each state lets an account's work do is in
// src/accounts/activity.ts; the limits of each tier in src/limits/tiers.ts.

/** The spec's tiers, in the order of their limits (smallest first). */
export const ACCOUNT_TIERS = ['solo', 'team', 'business', 'enterprise'] as const;
export type Tier = (typeof ACCOUNT_TIERS)[number];

export const ACCOUNT_STATES = ['active', 'suspended', 'closed'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

export const SUBSCRIPTIONS = ['active', 'lapsed', 'ended'] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

export const USER_ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof USER_ROLES)[number];

export interface AccountRow {
  id: string;
  name: string;
  tier: Tier;
  state: AccountState;
  subscription: Subscription;
  credit_micros: number;
  api_open: boolean;
  /** Limit overrides ("by contract"); null = the tier's value. */
  requests_per_minute: number | null;
  run_starts_per_minute: number | null;
  concurrent_runs: number | null;
  created_at: Date;
  updated_at: Date;
}
