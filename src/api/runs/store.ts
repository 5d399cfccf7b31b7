// Workflow runs: SQL for the checks before a start and for reading runs back (the runs are
// inserted by enqueueWorkflowRun, src/queue/enqueue.ts).
import type { Queryable } from '../../db/db.js';
import type { RunStatus, RunTrigger } from '../../engine/run-status.js';

export interface RunListRow {
  id: string;
  workflow_id: string;
  status: RunStatus;
  trigger: RunTrigger;
  summary: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const LIST_COLUMNS = 'id, workflow_id, status, trigger, summary, created_at, started_at, finished_at';

export async function listRuns(
  db: Queryable,
  accountId: string,
  workflowId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<RunListRow[]> {
  const params: unknown[] = [accountId, workflowId];
  let where = 'account_id = $1 and workflow_id = $2';
  if (after) {
    params.push(after.createdAt, after.id);
    where += ' and (created_at, id) < ($3, $4)';
  }
  params.push(limit);
  return db.query<RunListRow>(
    `select ${LIST_COLUMNS} from workflow_runs where ${where} order by created_at desc, id desc limit $${params.length}`,
    params,
  );
}

export interface RunDetailRow extends RunListRow {
  billed_micros: number;
}

export interface RunStepRow {
  node_id: string;
  node_kind: string;
  status: string;
  started_at: Date | null;
  finished_at: Date | null;
  ms: number;
  error: string | null;
}

export async function getRun(db: Queryable, accountId: string, id: string): Promise<RunDetailRow | null> {
  const rows = await db.query<RunDetailRow>(
    `select ${LIST_COLUMNS}, billed_micros from workflow_runs where account_id = $1 and id = $2`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export async function getRunSteps(db: Queryable, accountId: string, runId: string): Promise<RunStepRow[]> {
  return db.query<RunStepRow>(
    `select node_id, node_kind, status, started_at, finished_at, ms, error
       from workflow_run_steps where account_id = $1 and run_id = $2 order by seq`,
    [accountId, runId],
  );
}

/** The workflow a run is started on, with its block count (0 → 422 workflow_empty). */
export async function workflowForStart(tx: Queryable, accountId: string, workflowId: string): Promise<{ blocks: number } | null> {
  const rows = await tx.query<{ blocks: number }>(
    `select jsonb_array_length(blocks) as blocks from workflows where account_id = $1 and id = $2`,
    [accountId, workflowId],
  );
  return rows[0] ?? null;
}

export interface AccountForStart {
  tier: 'solo' | 'team' | 'business' | 'enterprise';
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
    `select tier, credit_micros, run_starts_per_minute, concurrent_runs from accounts where id = $1 for update`,
    [accountId],
  );
  return rows[0];
}

export interface ApiRunCounts {
  /** API-started runs queued or running now (awaiting_approval does not count). */
  active: number;
  /** API starts in the last 60 s (sliding). */
  recent: number;
  /** The start time of the oldest of those recent starts that must leave the window before another fits. */
  recentTimes: Date[];
}

export async function apiRunCounts(tx: Queryable, accountId: string): Promise<ApiRunCounts> {
  const [active] = await tx.query<{ n: number }>(
    `select count(*)::int as n from workflow_runs
      where account_id = $1 and trigger = 'api' and status in ('queued', 'running')`,
    [accountId],
  );
  const recent = await tx.query<{ created_at: Date }>(
    `select created_at from workflow_runs
      where account_id = $1 and trigger = 'api' and created_at > now() - interval '60 seconds'
      order by created_at`,
    [accountId],
  );
  return { active: active.n, recent: recent.length, recentTimes: recent.map((r) => r.created_at) };
}

/** Pages a run created through its output.project blocks (their effect keys start with the run id). */
export async function pagesCreatedByRun(db: Queryable, accountId: string, runId: string): Promise<{ id: string; title: string; project_id: string }[]> {
  return db.query(
    `select id, title, project_id from content_items
      where account_id = $1 and kind = 'page' and attrs->>'effect_key' like $2 order by created_at, id`,
    [accountId, `${runId}:%`],
  );
}
