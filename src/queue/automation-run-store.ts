// The automation_runs table as a leased queue (queue.ts, docs/architecture.md §9), the same way
// workflow-run-store.ts treats workflow_runs: a fair claim across accounts, lease renewal and
// release, and the fence (the engine's own fenced writes are src/engine/automations/store.ts).
// A run is claimed without changing its status (a waiting run stays `waiting` until the executor
// decides it may go on), so the fence matches both non-final statuses; a run stopped from outside
// (`automation-runs stop`, erasure) leaves them and so breaks the fence.
import type { Queryable } from '../db/db.js';
import { fairPick } from '../db/fair-claim.js';
import { accountMayWorkSql } from '../accounts/activity.js';
import { sqlList } from '../db/sql-list.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES } from '../domain/automation.js';
import { queueReadiness, type Readiness } from '../db/queue-readiness.js';
import { fenceParams, type ClaimedItem, type Fence, type LeasedQueue } from './queue.js';

export interface ClaimedAutomationRun extends ClaimedItem {
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
 * workflow-run-store.ts for the shape): each account with ready work gets its oldest run in the
 * first round, so one account's 60,000 queued runs cost another account at most one round's wait.
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
      returning r.account_id, r.id, r.attempt, r.failures, r.reclaims, r.run_at as ready_at`,
    [owner, leaseMs, limit],
  );
}

/** The fenced writes' condition over $1–$4 (fenceParams). */
export const AUTOMATION_RUN_FENCE = `account_id = $1 and id = $2 and attempt = $3 and lease_owner = $4 and status in (${ACTIVE})`;

export async function renewAutomationLease(db: Queryable, f: Fence, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `update automation_runs set lease_expires_at = now() + ($5::int * interval '1 millisecond') where ${AUTOMATION_RUN_FENCE} returning 1`,
    [...fenceParams(f), leaseMs],
  );
  return rows.length === 1;
}

/** Shutdown: free at once for another worker; clearing the owner keeps it from counting as a reclaim. */
export async function releaseAutomationLease(db: Queryable, f: Fence): Promise<boolean> {
  const rows = await db.query(`update automation_runs set lease_expires_at = now(), lease_owner = null where ${AUTOMATION_RUN_FENCE} returning 1`, fenceParams(f));
  return rows.length === 1;
}

/** After an execution that threw: counted, no lease (nor owner: not a reclaim), ready again after the backoff. */
export async function retryAutomationRunLater(db: Queryable, f: Fence, delayMs: number): Promise<boolean> {
  const rows = await db.query(
    `update automation_runs
        set failures = failures + 1, run_at = now() + ($5::int * interval '1 millisecond'),
            lease_owner = null, lease_expires_at = null
      where ${AUTOMATION_RUN_FENCE} returning 1`,
    [...fenceParams(f), delayMs],
  );
  return rows.length === 1;
}

/** Ready automation runs now, and the oldest one's wait (metrics). */
const automationRunReadiness = (db: Queryable): Promise<Readiness> => queueReadiness(db, 'automation_runs', ready('w'), accountMayWorkSql('ac'));

export const AUTOMATION_RUNS: LeasedQueue<ClaimedAutomationRun> = Object.freeze({
  noun: 'automation run',
  table: 'automation_runs',
  readiness: automationRunReadiness,
  claim: claimAutomationRuns,
  renew: renewAutomationLease,
  release: releaseAutomationLease,
  retryLater: retryAutomationRunLater,
});

