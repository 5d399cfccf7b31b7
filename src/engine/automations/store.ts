// The fenced writes a worker makes to an automation run it holds (the queue itself: claim,
// renew, release and the fence, is src/queue/automation-run-store.ts), the run's definition and
// step ledger, and the contact it is for.
import type { Queryable } from '../../db/db.js';
import { sqlList } from '../../db/sql-list.js';
import { oneRow } from '../../db/rows.js';
import {
  ACTIVE_AUTOMATION_RUN_STATUSES,
  type ActiveAutomationRunStatus,
  type AutomationStatus,
  type AutomationStepStatus,
  UNFINISHED_AUTOMATION_STEP_STATUSES,
} from '../../domain/automation.js';
import type { StepContactRow } from '../../domain/contact.js';
import { fenceParams as fp, type Fence } from '../../queue/queue.js';
import { AUTOMATION_RUN_FENCE as FENCE } from '../../queue/automation-run-store.js';
import { notifyRuns } from '../../queue/enqueue-store.js';

/** `'running', 'waiting'`: the statuses of a run not yet over, as SQL (built once). */
const ACTIVE = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);
/** Steps a run is still in (running, or waiting at a wait), as SQL. */
const OPEN_STEPS = sqlList(UNFINISHED_AUTOMATION_STEP_STATUSES);

/**
 * The run's account is not active: the run keeps its status, step and run_at, loses its lease and
 * owner (so it is no reclaim), and the claim skips it until the account is active again.
 */
export async function holdAutomationRun(db: Queryable, f: Fence): Promise<boolean> {
  const rows = await db.query(`update automation_runs set lease_expires_at = null, lease_owner = null where ${FENCE} returning 1`, fp(f));
  return rows.length === 1;
}

/**
 * First statement of every fenced transaction: locks the run row, renews the lease and records
 * the step the run is at. null = the lease is lost (roll back and stop).
 */
export async function touchRun(tx: Queryable, f: Fence, leaseMs: number, currentStep: string | null): Promise<{ status: string } | null> {
  const rows = await tx.query<{ status: string }>(
    `update automation_runs
        set lease_expires_at = now() + ($5::int * interval '1 millisecond'), current_step = coalesce($6, current_step)
      where ${FENCE} returning status`,
    [...fp(f), leaseMs, currentStep],
  );
  return rows[0] ?? null;
}

export type AutomationFinal = 'succeeded' | 'failed' | 'stopped';

export async function finishAutomationRun(
  tx: Queryable,
  f: Fence,
  status: AutomationFinal,
  error: string | null,
  failedStepId: string | null,
): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs
        set status = $5, error = $6, failed_step_id = $7, finished_at = now(), next_at = null,
            lease_owner = null, lease_expires_at = null
      where ${FENCE} returning 1`,
    [...fp(f), status, error, failedStepId],
  );
  return rows.length === 1;
}

/**
 * The run's executions kept throwing (SWITCHBOARD_RUN_MAX_ATTEMPTS), or threw an error that would
 * fail the same way again: it ends `failed` (fenced) at the step it was in, which ends `failed`
 * with `stepError` too. false when the fence no longer holds.
 */
export async function giveUpAutomationRun(tx: Queryable, f: Fence, runError: string, stepError: string): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs r
        set status = 'failed', error = $5, finished_at = now(), next_at = null, lease_owner = null, lease_expires_at = null,
            failed_step_id = (select s.step_id from automation_run_steps s
                               where s.account_id = r.account_id and s.run_id = r.id and s.status in (${OPEN_STEPS})
                               order by s.seq desc limit 1)
      where ${FENCE} returning 1`,
    [...fp(f), runError],
  );
  if (rows.length === 0) return false;
  await tx.query(
    `update automation_run_steps
        set status = 'failed', error = $3, finished_at = now(),
            ms = greatest(0, (extract(epoch from now() - coalesce(started_at, now())) * 1000)::int)
      where account_id = $1 and run_id = $2 and status in (${OPEN_STEPS})`,
    [f.accountId, f.runId, stepError],
  );
  return true;
}

/**
 * At a wait: no worker until `due`; the claim picks the run up again then. The failures counted so
 * far are forgotten: the run got this far (SWITCHBOARD_RUN_MAX_ATTEMPTS counts between waits).
 */
export async function parkWaiting(tx: Queryable, f: Fence, due: Date): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs
        set status = 'waiting', next_at = $5, run_at = $5, lease_owner = null, lease_expires_at = null, failures = 0
      where ${FENCE} returning 1`,
    [...fp(f), due],
  );
  return rows.length === 1;
}

/**
 * A waiting run came due while its automation is paused: it stays waiting, looked at again after
 * `holdMs` (next_at keeps the wait's own time; releaseHeldRuns brings held runs back at once).
 */
export async function holdWaiting(tx: Queryable, f: Fence, holdMs: number): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs
        set run_at = now() + ($5::int * interval '1 millisecond'), lease_owner = null, lease_expires_at = null
      where ${FENCE} and status = 'waiting' returning 1`,
    [...fp(f), holdMs],
  );
  return rows.length === 1;
}

/**
 * The wait is over: the run is running again. false when its time has not come (a run made ready
 * early by hand): the caller parks it again. Call after touchRun, which holds the row.
 */
export async function endWaiting(tx: Queryable, f: Fence): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs set status = 'running', next_at = null
      where ${FENCE} and (next_at is null or next_at <= now()) returning 1`,
    fp(f),
  );
  return rows.length === 1;
}

/**
 * For whoever resumes a paused automation (the hub, `automations resume`): its held waiting runs
 * that are already due go on now rather than at their next look. Notifies the workers on commit.
 */
export async function releaseHeldRuns(tx: Queryable, accountId: string, automationId: string): Promise<number> {
  const rows = await tx.query(
    `update automation_runs set run_at = greatest(next_at, now())
      where account_id = $1 and automation_id = $2 and status = 'waiting' and next_at is not null and run_at > next_at
      returning 1`,
    [accountId, automationId],
  );
  if (rows.length) await notifyRuns(tx);
  return rows.length;
}

export interface AutomationRunDef {
  status: ActiveAutomationRunStatus;
  automation_id: string;
  contact_id: string | null;
  key_id: string | null;
  test: boolean;
  tester_email: string | null;
  version: number;
  next_at: Date | null;
  automation_status: AutomationStatus;
  automation_deleted: boolean;
  project_id: string;
  project_settings: Record<string, unknown> | null;
  /**
   * The version's (or, for a test of the draft, the run's own snapshot's); null when the pinned
   * version row does not exist.
   */
  trigger: { type?: string | null; label?: string } | null;
  steps: unknown;
}

/**
 * The run, its automation, the version it is pinned to and the project's settings, in one read. A
 * test of the draft carries its own definition (snapshotted at the start), which wins.
 */
export async function loadAutomationRun(db: Queryable, accountId: string, runId: string): Promise<AutomationRunDef | null> {
  const rows = await db.query<AutomationRunDef>(
    `select r.status, r.automation_id, r.contact_id, r.key_id, r.test, r.tester_email, r.version, r.next_at,
            a.status as automation_status, a.deleted_at is not null as automation_deleted, a.project_id,
            p.settings as project_settings,
            coalesce(r.definition->'trigger', v.trigger) as trigger, coalesce(r.definition->'steps', v.steps) as steps
       from automation_runs r
       join automations a on a.account_id = r.account_id and a.id = r.automation_id
       left join projects p on p.account_id = a.account_id and p.id = a.project_id
       left join automation_versions v on v.account_id = r.account_id and v.automation_id = r.automation_id and v.version = r.version
      where r.account_id = $1 and r.id = $2 and r.status in (${ACTIVE})`,
    [accountId, runId],
  );
  return rows[0] ?? null;
}

export interface LedgerRow {
  seq: number;
  step_id: string;
  type: string;
  status: AutomationStepStatus;
  output: Record<string, unknown> | null;
}

export async function loadLedger(db: Queryable, accountId: string, runId: string): Promise<LedgerRow[]> {
  return db.query<LedgerRow>(
    `select seq, step_id, type, status, output from automation_run_steps where account_id = $1 and run_id = $2 order by seq`,
    [accountId, runId],
  );
}

export interface NewStepRow {
  accountId: string;
  runId: string;
  seq: number;
  stepId: string;
  name: string;
  type: string;
  status: 'ok' | 'running';
  effectKey: string | null;
}

export async function insertStep(tx: Queryable, s: NewStepRow): Promise<void> {
  await tx.query(
    `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at, finished_at, effect_key)
     values ($1, $2, $3, $4, $5, $6, $7, now(), case when $7 = 'ok' then now() end, $8)`,
    [s.accountId, s.runId, s.seq, s.stepId, s.name, s.type, s.status, s.effectKey],
  );
}

/** A step's result; ms is measured by the database from the step's start (so resumes count). */
export async function endStep(
  tx: Queryable,
  accountId: string,
  runId: string,
  seq: number,
  status: Exclude<AutomationStepStatus, 'running' | 'unknown'>,
  error: string | null,
  output: Record<string, unknown> | null = null,
): Promise<void> {
  await tx.query(
    `update automation_run_steps
        set status = $4, error = $5, output = coalesce($6::jsonb, output),
            finished_at = case when $4 = 'waiting' then null else now() end,
            ms = greatest(0, (extract(epoch from now() - coalesce(started_at, now())) * 1000)::int)
      where account_id = $1 and run_id = $2 and seq = $3`,
    [accountId, runId, seq, status, error, output === null ? null : JSON.stringify(output)],
  );
}

/** When a wait that started at the step's start ends (the database does the calendar arithmetic). */
export async function waitDue(tx: Queryable, accountId: string, runId: string, seq: number, interval: string | null, until: string | null): Promise<{ due: Date; now: Date }> {
  const rows = await tx.query<{ due: Date; now: Date }>(
    `select coalesce($5::timestamptz, started_at + $4::interval) as due, now() as now
       from automation_run_steps where account_id = $1 and run_id = $2 and seq = $3`,
    [accountId, runId, seq, interval, until],
  );
  return oneRow(rows, 'the waiting step');
}

/**
 * The contact as it is now. `lock` (inside a step's transaction) holds the row until commit, so an
 * opt-out committed concurrently is ordered either before this send (and seen) or after it.
 */
export async function readContact(q: Queryable, accountId: string, contactId: string, lock: boolean): Promise<StepContactRow | null> {
  const rows = await q.query<StepContactRow>(
    `select id, email, first_name, last_name, phone, lifecycle_stage, do_not_contact, email_opt_out, sms_consent,
            sms_stopped, tags, archived_at, erased_at
       from contacts where account_id = $1 and id = $2 ${lock ? 'for no key update' : ''}`,
    [accountId, contactId],
  );
  return rows[0] ?? null;
}
