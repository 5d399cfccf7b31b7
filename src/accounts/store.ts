// Accounts: SQL for the operator commands (`switchboard account show|set`). The request
// pipeline reads accounts through the key lookup in keys/store.ts, not through this module.
import type { Queryable } from '../db/db.js';
import type { Tier } from '../limits/tiers.js';

export const ACCOUNT_STATES = ['active', 'suspended', 'closed'] as const;
export const SUBSCRIPTIONS = ['active', 'lapsed', 'ended'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];
export type Subscription = (typeof SUBSCRIPTIONS)[number];

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

/** The fields an operator may change; a null override returns the account to its tier's limit. */
export interface AccountChanges {
  tier?: Tier;
  state?: AccountState;
  subscription?: Subscription;
  credit_micros?: number;
  api_open?: boolean;
  requests_per_minute?: number | null;
  run_starts_per_minute?: number | null;
  concurrent_runs?: number | null;
}

// Column names are spliced into SQL, so they come only from this fixed list, never from input.
const CHANGEABLE: readonly (keyof AccountChanges)[] = [
  'tier',
  'state',
  'subscription',
  'credit_micros',
  'api_open',
  'requests_per_minute',
  'run_starts_per_minute',
  'concurrent_runs',
];

const COLUMNS = `id, name, tier, state, subscription, credit_micros, api_open,
  requests_per_minute, run_starts_per_minute, concurrent_runs, created_at, updated_at`;

export async function getAccount(db: Queryable, accountId: string): Promise<AccountRow | null> {
  const rows = await db.query<AccountRow>(`select ${COLUMNS} from accounts where id = $1`, [accountId]);
  return rows[0] ? normalise(rows[0]) : null;
}

/** Applies the changes in one statement; null when there is no such account. */
export async function updateAccount(db: Queryable, accountId: string, changes: AccountChanges): Promise<AccountRow | null> {
  const sets: string[] = [];
  const params: unknown[] = [accountId];
  for (const col of CHANGEABLE) {
    if (changes[col] === undefined) continue;
    params.push(changes[col]);
    sets.push(`${col} = $${params.length}`);
  }
  if (!sets.length) return getAccount(db, accountId);
  const rows = await db.query<AccountRow>(
    `update accounts set ${sets.join(', ')}, updated_at = now() where id = $1 returning ${COLUMNS}`,
    params,
  );
  return rows[0] ? normalise(rows[0]) : null;
}

// bigint columns come back as numbers from both adapters, but a string would slip through JSON
// output silently, so make the type certain here.
function normalise(row: AccountRow): AccountRow {
  return { ...row, credit_micros: Number(row.credit_micros) };
}
