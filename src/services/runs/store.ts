// Starting a run: the reads and the lock its rules need (the insert is src/queue's).
import type { Queryable } from '../../db/db.js';
import { sqlList } from '../../db/sql-list.js';
import { oneRow } from '../../db/rows.js';
import type { Tier } from '../../domain/account.js';
import { ACTIVE_RUN_STATUSES } from '../../domain/workflow.js';

/** The workflow a run is started on, with its block count (0 → 422 workflow_empty); a deleted one is not there. */
export async function workflowForStart(tx: Queryable, accountId: string, workflowId: string): Promise<{ blocks: number } | null> {
  const rows = await tx.query<{ blocks: number }>(
    `select jsonb_array_length(blocks) as blocks from workflows where account_id = $1 and id = $2 and deleted_at is null`,
    [accountId, workflowId],
  );
  return rows[0] ?? null;
}

export interface AccountForStart {
  tier: Tier;
  credit_micros: number;
  run_starts_per_minute: number | null;
  concurrent_runs: number | null;
}

/**
 * Locks the account row for the rest of the transaction: run-limit checks and the insert happen
 * under it, so two processes cannot both squeeze in under a limit.
 */
export async function lockAccountForStart(tx: Queryable, accountId: string): Promise<AccountForStart> {
  const rows = await tx.query<AccountForStart>(
    `select tier, credit_micros, run_starts_per_minute, concurrent_runs from accounts where id = $1 for no key update`,
    [accountId],
  );
  return oneRow(rows, 'the account starting a run');
}

export interface ApiRunCounts {
  /** API-started runs queued or running now (awaiting_approval does not count). */
  active: number;
  /** API starts in the last 60 s (sliding). */
  recent: number;
  /** The start time of the oldest of those recent starts that must leave the window before another fits. */
  recentTimes: Date[];
}

/** API runs holding a slot: they count toward the concurrency limit. */
const API_RUNS_ACTIVE_SQL = `select count(*)::int as n from workflow_runs
      where account_id = $1 and trigger = 'api' and status in (${sqlList(ACTIVE_RUN_STATUSES)})`;

export async function apiRunCounts(tx: Queryable, accountId: string): Promise<ApiRunCounts> {
  const active = oneRow(await tx.query<{ n: number }>(
    API_RUNS_ACTIVE_SQL,
    [accountId],
  ), 'active API run count');
  const recent = await tx.query<{ created_at: Date }>(
    `select created_at from workflow_runs
      where account_id = $1 and trigger = 'api' and created_at > now() - interval '60 seconds'
      order by created_at`,
    [accountId],
  );
  return { active: active.n, recent: recent.length, recentTimes: recent.map((r) => r.created_at) };
}
