// The fixture loader's bulk writes for the records that have no service of their own yet
// (accounts, users, projects and content items, the work-management area). Each table's columns
// are listed once here, with their SQL types; rows come in that order. Keys go through the key
// store, workflows, automations and contacts through their services.
import { insertRows, type Columns } from '../../db/bulk-insert.js';
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';

/** The transaction's own clock, so archived_at, erased_at and wm_opened_at equal created_at. */
export async function transactionNow(tx: Queryable): Promise<Date> {
  const { now } = oneRow(await tx.query<{ now: Date }>('select now() as now'), 'now()');
  return now;
}

export interface AccountInsert {
  name: string;
  tier: string;
  state: string;
  subscription: string;
  credit_micros: number;
  api_open: boolean;
  /** The account's overrides of its tier's limits (null: the tier's). */
  limits: { requests_per_minute: number | null; run_starts_per_minute: number | null; concurrent_runs: number | null };
}

export async function insertAccount(tx: Queryable, id: string, a: AccountInsert): Promise<void> {
  const l = a.limits;
  await tx.query(
    `insert into accounts (id, name, tier, state, subscription, credit_micros, api_open,
                           requests_per_minute, run_starts_per_minute, concurrent_runs)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [id, a.name, a.tier, a.state, a.subscription, a.credit_micros, a.api_open, l.requests_per_minute, l.run_starts_per_minute, l.concurrent_runs],
  );
}

/** The tables a seed writes in bulk, each with its columns in row order. */
export const SEED_TABLES = {
  users: [['account_id', 'uuid'], ['id', 'uuid'], ['email', 'text'], ['name', 'text'], ['role', 'text'], ['password_hash', 'text']],
  projects: [
    ['account_id', 'uuid'], ['id', 'uuid'], ['name', 'text'], ['description', 'text'], ['settings', 'jsonb'], ['wm_prefix', 'text'],
    ['wm_previous_prefixes', 'text[]'], ['wm_opened_at', 'timestamptz'], ['wm_next_number', 'int4'],
  ],
  content_items: [
    ['account_id', 'uuid'], ['id', 'uuid'], ['project_id', 'uuid'], ['kind', 'text'], ['title', 'text'], ['text', 'text'], ['html', 'text'],
    ['attrs', 'jsonb'],
  ],
  wm_sprints: [
    ['account_id', 'uuid'], ['id', 'uuid'], ['project_id', 'uuid'], ['name', 'text'], ['goal', 'text'], ['state', 'text'],
    ['start_date', 'date'], ['end_date', 'date'], ['review', 'jsonb'],
  ],
  wm_items: [
    ['account_id', 'uuid'], ['id', 'uuid'], ['project_id', 'uuid'], ['number', 'int4'], ['type', 'text'], ['title', 'text'],
    ['status', 'text'], ['sprint_id', 'uuid'], ['epic_number', 'int4'], ['labels', 'text[]'], ['assignee', 'uuid'],
    ['start_date', 'date'], ['due_date', 'date'], ['points', 'int4'], ['description', 'text'], ['linked_documents', 'uuid[]'],
    ['rank', 'text'],
  ],
  wm_item_history: [
    ['account_id', 'uuid'], ['item_id', 'uuid'], ['seq', 'int4'], ['at', 'timestamptz'], ['actor', 'uuid'], ['kind', 'text'],
    ['text', 'text'], ['field', 'text'], ['from_value', 'text'], ['to_value', 'text'],
  ],
} as const satisfies Record<string, Columns>;

export type SeedTable = keyof typeof SEED_TABLES;

export function insertSeedRows(tx: Queryable, table: SeedTable, rows: unknown[][]): Promise<void> {
  return insertRows(tx, table, SEED_TABLES[table], rows);
}
