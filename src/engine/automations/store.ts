// The automation_runs table as the engine's queue (DESIGN 8), the same way scheduler/store.ts
// treats workflow_runs: a fair claim across accounts, lease renewal and release, and fenced writes.
// A run is claimed without changing its status (a waiting run stays `waiting` until the executor
// decides it may go on), so the fence matches both non-final statuses; a run stopped from outside
// (`automation-runs stop`, erasure) leaves them and so breaks the fence.
import type { Queryable } from '../../db/db.js';
import { fairPick } from '../../db/fair-claim.js';
import { sqlList } from '../../db/sql-list.js';
import {
  ACTIVE_AUTOMATION_RUN_STATUSES,
  type ActiveAutomationRunStatus,
  type AutomationStatus,
  type AutomationStepStatus,
} from '../../domain/automation.js';
import type { StepContactRow } from '../../domain/contact.js';
import { accountMayWorkSql } from '../../accounts/activity.js';
import { RUNS_CHANNEL } from '../../api/runs/store.js';

export interface AutomationFence {
  accountId: string;
  runId: string;
  attempt: number;
  owner: string;
}

export interface ClaimedAutomationRun {
  account_id: string;
  id: string;
  attempt: number;
  /** How many times the run was taken over from a worker whose lease ran out. */
  reclaims: number;
}

/** `'running', 'waiting'`: the statuses of a run not yet over, as SQL (built once). */
const ACTIVE = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);

const ready = (t: string): string =>
  `${t}.status in (${ACTIVE}) and ${t}.run_at <= now()
   and (${t}.lease_expires_at is null or ${t}.lease_expires_at < now())`;

const CLAIM_PICK = fairPick({ table: 'automation_runs', active: `(${ACTIVE})`, ready: ready('w'), accountMayWork: accountMayWorkSql('ac') });

/**
 * Claims up to `limit` ready runs in one statement, round-robin across accounts (see claimRuns in
 * scheduler/store.ts for the shape): each account with ready work gets its oldest run in the first
 * round, so one account's 60,000 queued runs cost another account at most one round's wait.
 * A run still holding a lease owner when claimed was abandoned by a worker that died: that
 * counts as a reclaim (a clean park or release clears the owner).
 */
export async function claimAutomationRuns(db: Queryable, owner: string, leaseMs: number, limit: number): Promise<ClaimedAutomationRun[]> {
  return db.query<ClaimedAutomationRun>(
    `${CLAIM_PICK}
     update automation_runs r
        set lease_owner = $1,
            lease_expires_at = now() + ($2::int * interval '1 millisecond'),
            attempt = r.attempt + 1,
            reclaims = r.reclaims + case when r.lease_owner is not null then 1 else 0 end
       from picked
      where r.account_id = picked.account_id and r.id = picked.id
      returning r.account_id, r.id, r.attempt, r.reclaims`,
    [owner, leaseMs, limit],
  );
}

const FENCE = `account_id = $1 and id = $2 and attempt = $3 and lease_owner = $4 and status in (${ACTIVE})`;
const fp = (f: AutomationFence): unknown[] => [f.accountId, f.runId, f.attempt, f.owner];

export async function renewAutomationLease(db: Queryable, f: AutomationFence, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `update automation_runs set lease_expires_at = now() + ($5::int * interval '1 millisecond') where ${FENCE} returning 1`,
    [...fp(f), leaseMs],
  );
  return rows.length === 1;
}

/** Shutdown: free at once for another worker; clearing the owner keeps it from counting as a reclaim. */
export async function releaseAutomationLease(db: Queryable, f: AutomationFence): Promise<boolean> {
  const rows = await db.query(`update automation_runs set lease_expires_at = now(), lease_owner = null where ${FENCE} returning 1`, fp(f));
  return rows.length === 1;
}

/**
 * The run's account is not active: the run keeps its status, step and run_at, loses its lease and
 * owner (so it is no reclaim), and the claim skips it until the account is active again.
 */
export async function holdAutomationRun(db: Queryable, f: AutomationFence): Promise<boolean> {
  const rows = await db.query(`update automation_runs set lease_expires_at = null, lease_owner = null where ${FENCE} returning 1`, fp(f));
  return rows.length === 1;
}

/**
 * First statement of every fenced transaction: locks the run row, renews the lease and records
 * the step the run is at. null = the lease is lost (roll back and stop).
 */
export async function touchRun(tx: Queryable, f: AutomationFence, leaseMs: number, currentStep: string | null): Promise<{ status: string } | null> {
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
  f: AutomationFence,
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

/** At a wait: no worker until `due`; the claim picks the run up again then. */
export async function parkWaiting(tx: Queryable, f: AutomationFence, due: Date): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs
        set status = 'waiting', next_at = $5, run_at = $5, lease_owner = null, lease_expires_at = null
      where ${FENCE} returning 1`,
    [...fp(f), due],
  );
  return rows.length === 1;
}

/**
 * A waiting run came due while its automation is paused: it stays waiting, looked at again after
 * `holdMs` (next_at keeps the wait's own time; releaseHeldRuns brings held runs back at once).
 */
export async function holdWaiting(tx: Queryable, f: AutomationFence, holdMs: number): Promise<boolean> {
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
export async function endWaiting(tx: Queryable, f: AutomationFence): Promise<boolean> {
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
  if (rows.length) await tx.query(`select pg_notify($1, '')`, [RUNS_CHANNEL]);
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
  /** null when the pinned version row does not exist. */
  trigger: { type?: string | null; label?: string } | null;
  steps: unknown;
}

/** The run, its automation, the version it is pinned to and the project's settings, in one read. */
export async function loadAutomationRun(db: Queryable, accountId: string, runId: string): Promise<AutomationRunDef | null> {
  const rows = await db.query<AutomationRunDef>(
    `select r.status, r.automation_id, r.contact_id, r.key_id, r.test, r.tester_email, r.version, r.next_at,
            a.status as automation_status, a.deleted_at is not null as automation_deleted, a.project_id,
            p.settings as project_settings, v.trigger, v.steps
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
  return rows[0];
}

/**
 * The contact as it is now. `lock` (inside a step's transaction) holds the row until commit, so an
 * opt-out committed concurrently is ordered either before this send (and seen) or after it.
 */
export async function readContact(q: Queryable, accountId: string, contactId: string, lock: boolean): Promise<StepContactRow | null> {
  const rows = await q.query<StepContactRow>(
    `select id, email, first_name, last_name, phone, lifecycle_stage, do_not_contact, email_opt_out, sms_consent,
            sms_stopped, tags, archived_at, erased_at
       from contacts where account_id = $1 and id = $2 ${lock ? 'for update' : ''}`,
    [accountId, contactId],
  );
  return rows[0] ?? null;
}
