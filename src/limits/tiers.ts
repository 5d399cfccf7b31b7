// The spec's tier table. null = "by contract": no fixed limit unless the account carries an override.
import type { Tier } from '../domain/account.js';

export interface TierLimits {
  requestsPerMinute: number;
  runStartsPerMinute: number | null;
  concurrentRuns: number | null;
}

export const TIERS: Readonly<Record<Tier, TierLimits>> = Object.freeze({
  solo: { requestsPerMinute: 60, runStartsPerMinute: 6, concurrentRuns: 2 },
  team: { requestsPerMinute: 120, runStartsPerMinute: 12, concurrentRuns: 5 },
  business: { requestsPerMinute: 300, runStartsPerMinute: 30, concurrentRuns: 10 },
  enterprise: { requestsPerMinute: 1000, runStartsPerMinute: null, concurrentRuns: null },
});

export const FAILED_AUTH_PER_MINUTE = 20;

export interface LimitOverrides {
  requests_per_minute: number | null;
  run_starts_per_minute: number | null;
  concurrent_runs: number | null;
}

/** The limits in force for an account: its tier's, with the account's overrides on top. */
export function limitsFor(tier: Tier, o: Partial<LimitOverrides> = {}): TierLimits {
  const t = TIERS[tier];
  return {
    requestsPerMinute: o.requests_per_minute ?? t.requestsPerMinute,
    runStartsPerMinute: o.run_starts_per_minute ?? t.runStartsPerMinute,
    concurrentRuns: o.concurrent_runs ?? t.concurrentRuns,
  };
}
