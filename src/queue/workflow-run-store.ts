// The workflow_runs table as a leased queue (queue.ts, docs/architecture.md §9): the claim (with
// the reaper in it), lease renewal and release, and the fence every later write by the worker
// carries (the engine's own fenced writes are src/engine/scheduler/store.ts). The fence matches
// only while this worker's attempt still owns a `running` run, so a worker whose lease was taken
// over, or whose run was cancelled, changes nothing.
import type { Queryable } from '../db/db.js';
import { fairPick } from '../db/fair-claim.js';
import { sqlList } from '../db/sql-list.js';
import { ACTIVE_RUN_STATUSES } from '../domain/workflow.js';
import { accountMayWorkSql } from '../accounts/activity.js';
import { queueReadiness, type Readiness } from '../db/queue-readiness.js';
import { fenceParams, type ClaimedItem, type Fence, type LeasedQueue } from './queue.js';

export interface ClaimedRun extends ClaimedItem {
  workflow_id: string;
  key_id: string | null;
  /** queued on first claim; running when an expired lease or an approval is picked up. */
  previous_status: 'queued' | 'running';
}

// A run is ready when it is queued, or running without a live lease (its worker died, it was
// released at shutdown, or it was just approved), and its run_at has come.
/** `'queued', 'running'`: runs holding a concurrency slot, as SQL (built once). */
const ACTIVE = sqlList(ACTIVE_RUN_STATUSES);

const ready = (t: string): string =>
  `${t}.status in (${ACTIVE}) and ${t}.run_at <= now()
   and (${t}.lease_expires_at is null or ${t}.lease_expires_at < now())`;

const CLAIM_PICK = fairPick({ table: 'workflow_runs', active: `(${ACTIVE})`, ready: ready('w'), accountMayWork: accountMayWorkSql('ac'), extra: ', w.status as previous_status' });

/**
 * Claims up to `limit` ready runs in one statement, fairly across accounts: every account with
 * ready work gets its oldest run in the first round, its second oldest in the second round, and so
 * on (round-robin by rank), so one account's thousands of queued runs cannot starve another's one.
 *
 * The pick (CTEs and locking) is src/db/fair-claim.ts, shared with the automation queue.
 * The same statement reclaims a `running` run whose lease expired: that is the reaper.
 */
export async function claimRuns(db: Queryable, owner: string, leaseMs: number, limit: number): Promise<ClaimedRun[]> {
  return db.query<ClaimedRun>(
    `${CLAIM_PICK}
     update workflow_runs r
        set status = 'running',
            started_at = coalesce(r.started_at, now()),
            summary = case when r.status = 'queued' then 'Running' else r.summary end,
            lease_owner = $1,
            lease_expires_at = now() + ($2::int * interval '1 millisecond'),
            attempt = r.attempt + 1,
            -- Time held while its account was not active does not count toward the run's limit.
            paused_ms = r.paused_ms + case when r.awaiting_since is null then 0
                          else greatest(0, (extract(epoch from now() - r.awaiting_since) * 1000)::bigint) end,
            awaiting_since = null
       from picked
      where r.account_id = picked.account_id and r.id = picked.id
      returning r.account_id, r.id, r.workflow_id, r.key_id, r.attempt, r.failures, r.run_at as ready_at, picked.previous_status`,
    [owner, leaseMs, limit],
  );
}

/** The fenced writes' condition over $1–$4 (fenceParams). */
export const RUN_FENCE = `account_id = $1 and id = $2 and attempt = $3 and lease_owner = $4 and status = 'running'`;

/** Renews the lease; false when it is lost (taken over, cancelled, released): stop at once. */
export async function renewLease(db: Queryable, f: Fence, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `update workflow_runs set lease_expires_at = now() + ($5::int * interval '1 millisecond')
      where ${RUN_FENCE} returning 1`,
    [...fenceParams(f), leaseMs],
  );
  return rows.length === 1;
}

/** Shutdown: the lease ends now, so another worker may take the run over at once. */
export async function releaseLease(db: Queryable, f: Fence): Promise<boolean> {
  const rows = await db.query(`update workflow_runs set lease_expires_at = now() where ${RUN_FENCE} returning 1`, fenceParams(f));
  return rows.length === 1;
}

/** After an execution that threw: counted, no lease, ready again once the backoff has passed. */
export async function retryRunLater(db: Queryable, f: Fence, delayMs: number): Promise<boolean> {
  const rows = await db.query(
    `update workflow_runs
        set failures = failures + 1, run_at = now() + ($5::int * interval '1 millisecond'),
            lease_owner = null, lease_expires_at = null
      where ${RUN_FENCE} returning 1`,
    [...fenceParams(f), delayMs],
  );
  return rows.length === 1;
}

/** Ready workflow runs now, and the oldest one's wait (metrics). */
const workflowRunReadiness = (db: Queryable): Promise<Readiness> => queueReadiness(db, 'workflow_runs', ready('w'), accountMayWorkSql('ac'));

export const WORKFLOW_RUNS: LeasedQueue<ClaimedRun> = Object.freeze({
  noun: 'run',
  table: 'workflow_runs',
  readiness: workflowRunReadiness,
  claim: claimRuns,
  renew: renewLease,
  release: releaseLease,
  retryLater: retryRunLater,
});

