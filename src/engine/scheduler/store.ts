// The fenced writes a worker makes to a workflow run it holds, and the moves made from outside
// (approve, reject, cancel). The queue itself (claim, renew, release, the fence) is
// src/queue/workflow-run-store.ts. Every write after a claim carries the Fence: it matches only
// while this worker's attempt still owns a `running` run, so a worker whose lease was taken over,
// or whose run was cancelled, changes nothing.
import type { Queryable } from '../../db/db.js';
import { sqlList } from '../../db/sql-list.js';
import { NON_FINAL, UNFINISHED_RUN_STEP_STATUSES, type RunStatus } from '../../domain/workflow.js';
import { fenceParams, type Fence } from '../../queue/queue.js';
import { RUN_FENCE as FENCE } from '../../queue/workflow-run-store.js';
import { notifyRuns } from '../../queue/enqueue-store.js';

// Status lists as SQL, built once: runs not yet final, steps not yet ended.
const OPEN = sqlList(NON_FINAL);
const OPEN_STEPS = sqlList(UNFINISHED_RUN_STEP_STATUSES);

/**
 * The run's account is not active (suspended, or its subscription lapsed or ended): the run stays
 * `running` with no lease, where it stood, and the claim skips it until the account is active
 * again; then it resumes at the step it was in. The time held is set aside like an approval wait
 * (awaiting_since; the next claim adds it to paused_ms).
 */
export async function holdRun(db: Queryable, f: Fence, summary: string): Promise<boolean> {
  const rows = await db.query(
    `update workflow_runs
        set summary = $5, awaiting_since = now(), lease_owner = null, lease_expires_at = null
      where ${FENCE} returning 1`,
    [...fenceParams(f), summary],
  );
  return rows.length === 1;
}

/**
 * The first statement of every fenced transaction: locks the run row (so a concurrent claim
 * waits for this transaction, then sees the renewed lease), renews the lease and optionally sets
 * the summary. false = the lease is lost and the caller must roll back and stop.
 */
export async function fencedTouch(tx: Queryable, f: Fence, leaseMs: number, summary: string | null): Promise<boolean> {
  const rows = await tx.query(
    `update workflow_runs
        set lease_expires_at = now() + ($5::int * interval '1 millisecond'),
            summary = coalesce($6, summary)
      where ${FENCE} returning 1`,
    [...fenceParams(f), leaseMs, summary],
  );
  return rows.length === 1;
}

export type FinalStatus = 'succeeded' | 'failed' | 'partial';

/**
 * Ends the run (fenced). A `null` summary for `succeeded` is computed from the database clock:
 * "Succeeded in 3.2 s", the run's time from its start, not counting any wait for approval.
 */
export async function finishRun(tx: Queryable, f: Fence, status: FinalStatus, summary: string | null): Promise<boolean> {
  const rows = await tx.query(
    `update workflow_runs
        set status = $5,
            summary = coalesce($6, 'Succeeded in ' ||
              to_char(greatest(0, extract(epoch from now() - started_at) - paused_ms / 1000.0), 'FM9999999990.0') || ' s'),
            finished_at = now(), lease_owner = null, lease_expires_at = null
      where ${FENCE} returning 1`,
    [...fenceParams(f), status, summary],
  );
  return rows.length === 1;
}

/**
 * Parks the run at an approval block: no lease, no worker, until someone approves or rejects. The
 * failures counted so far are forgotten: the run got this far (SWITCHBOARD_RUN_MAX_ATTEMPTS counts
 * between parks).
 */
export async function parkForApproval(tx: Queryable, f: Fence, summary: string): Promise<boolean> {
  const rows = await tx.query(
    `update workflow_runs
        set status = 'awaiting_approval', summary = $5, awaiting_since = now(),
            lease_owner = null, lease_expires_at = null, failures = 0
      where ${FENCE} returning 1`,
    [...fenceParams(f), summary],
  );
  return rows.length === 1;
}

export interface RunTiming {
  /** The run's own time so far (from started_at, less time spent awaiting approval). */
  elapsed_ms: number;
}

export async function runTiming(db: Queryable, accountId: string, runId: string): Promise<RunTiming | null> {
  const rows = await db.query<RunTiming>(
    `select greatest(0, (extract(epoch from now() - started_at) * 1000)::bigint - paused_ms)::bigint as elapsed_ms
       from workflow_runs where account_id = $1 and id = $2`,
    [accountId, runId],
  );
  return rows[0] ?? null;
}

// ---- Moves made from outside the engine (operator commands, the hub): not fenced, since no
// worker holds a run that is awaiting approval, and a cancel is meant to win over its worker.

export interface RunState {
  account_id: string;
  id: string;
  workflow_id: string;
  status: RunStatus;
}

/** A run by id; the account narrows it when given (operator commands may omit it). */
export async function findRun(db: Queryable, runId: string, accountId: string | null): Promise<RunState | null> {
  const rows = await db.query<RunState>(
    `select account_id, id, workflow_id, status from workflow_runs where id = $1 and ($2::uuid is null or account_id = $2::uuid)`,
    [runId, accountId],
  );
  return rows[0] ?? null;
}

/**
 * What a person decided on a run awaiting approval: who (null for the operator), and for an
 * approval the text to go on with (null: the draft as it stood), for a rejection the reason
 * (null: none given). Recorded on the awaiting step, whose wait ends at decided_at.
 */
export interface Decision {
  userId: string | null;
  text?: string | null;
  reason?: string | null;
}

/** The awaiting step of the run records the decision (the run row was moved in this transaction). */
async function recordDecision(tx: Queryable, accountId: string, runId: string, d: Decision, ended: boolean): Promise<void> {
  await tx.query(
    `update workflow_run_steps
        set decided_by_user = $3, decided_at = now(), approved_text = $4, reject_reason = $5,
            status = case when $6 then 'failed' else status end,
            error = case when $6 then 'Rejected' else error end,
            finished_at = case when $6 then now() else finished_at end
      where account_id = $1 and run_id = $2 and status = 'awaiting'`,
    [accountId, runId, d.userId, d.text ?? null, d.reason ?? null, ended],
  );
}

/**
 * awaiting_approval → running, with no lease and run_at now, so the next claim resumes it; the
 * time spent waiting is set aside so it does not count toward the run time limit. The awaiting
 * step keeps the decision (an edited text is what the approval block passes on). Notifies the
 * workers (delivered on commit).
 */
export async function approveRun(tx: Queryable, accountId: string, runId: string, d: Decision = { userId: null }): Promise<boolean> {
  const rows = await tx.query(
    `update workflow_runs
        set status = 'running', summary = 'Approved; continuing', run_at = now(),
            lease_owner = null, lease_expires_at = null,
            paused_ms = paused_ms + greatest(0, (extract(epoch from now() - coalesce(awaiting_since, now())) * 1000)::bigint),
            awaiting_since = null
      where account_id = $1 and id = $2 and status = 'awaiting_approval' returning 1`,
    [accountId, runId],
  );
  if (rows.length === 0) return false;
  await recordDecision(tx, accountId, runId, { ...d, reason: null }, false);
  await notifyRuns(tx);
  return true;
}

/** awaiting_approval → rejected; the awaiting step fails with "Rejected" and keeps the reason. */
export async function rejectRun(tx: Queryable, accountId: string, runId: string, d: Decision = { userId: null }): Promise<boolean> {
  const rows = await tx.query(
    `update workflow_runs
        set status = 'rejected', summary = 'Rejected', finished_at = now(), awaiting_since = null,
            lease_owner = null, lease_expires_at = null
      where account_id = $1 and id = $2 and status = 'awaiting_approval' returning 1`,
    [accountId, runId],
  );
  if (rows.length === 0) return false;
  await recordDecision(tx, accountId, runId, { ...d, text: null }, true);
  return true;
}

/**
 * Any non-final status → cancelled. A worker executing the run finds its fence gone at its next
 * write or heartbeat and stops; the step it was in ends `failed` "Cancelled" here, at once.
 */
export async function cancelRun(tx: Queryable, accountId: string, runId: string): Promise<boolean> {
  const rows = await tx.query(
    `update workflow_runs
        set status = 'cancelled', summary = 'Cancelled', finished_at = now(), awaiting_since = null,
            lease_owner = null, lease_expires_at = null
      where account_id = $1 and id = $2 and status in (${OPEN}) returning 1`,
    [accountId, runId],
  );
  if (rows.length === 0) return false;
  await failOpenSteps(tx, accountId, runId, 'Cancelled');
  return true;
}

/** The steps a run was in when it ended from outside them (cancelled, given up) end `failed` with `error`. */
async function failOpenSteps(tx: Queryable, accountId: string, runId: string, error: string): Promise<void> {
  await tx.query(
    `update workflow_run_steps
        set status = 'failed', error = $3, finished_at = now(),
            ms = case when started_at is null then ms
                      else greatest(ms, (extract(epoch from now() - started_at) * 1000)::int) end
      where account_id = $1 and run_id = $2 and status in (${OPEN_STEPS})`,
    [accountId, runId, error],
  );
}

/**
 * The run's executions kept throwing (SWITCHBOARD_RUN_MAX_ATTEMPTS), or threw an error that would
 * fail the same way again: it ends `failed` with `summary` (fenced), and the step it was in with
 * `error`. false when the fence no longer holds.
 */
export async function giveUpRun(tx: Queryable, f: Fence, summary: string, error: string): Promise<boolean> {
  if (!(await finishRun(tx, f, 'failed', summary))) return false;
  await failOpenSteps(tx, f.accountId, f.runId, error);
  return true;
}

export interface WorkflowToStart {
  account_id: string;
  id: string;
  block_count: number;
}

/** The workflow a manual run starts (by id, the account narrowing it when given); never a deleted one. */
export async function findWorkflowToStart(db: Queryable, workflowId: string, accountId: string | null): Promise<WorkflowToStart | null> {
  const rows = await db.query<WorkflowToStart>(
    `select account_id, id, case when jsonb_typeof(blocks) = 'array' then jsonb_array_length(blocks) else 0 end as block_count
       from workflows where id = $1 and ($2::uuid is null or account_id = $2::uuid) and deleted_at is null`,
    [workflowId, accountId],
  );
  return rows[0] ?? null;
}
