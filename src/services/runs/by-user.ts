// A person acting on workflow runs: the hub's "Run now", retry ("Run again" in the hub, `runs
// retry` in the CLI), and approve, reject, cancel from the hub or the operator CLI (the actor says
// who). Each change and its audit entry are one transaction.
// The start makes the checks the API's start makes for the workflow and the account's credit
// (checkStartable); the API's per-minute and concurrency limits count `api` runs only, so a
// manual start meets neither. The moves follow the run state machine, and the UPDATE re-checks
// the status, so a run that moved in between is refused.
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, found } from '../../domain/errors.js';
import { canRetry, isFinal, type RunStatus } from '../../domain/workflow.js';
import { approveRun, cancelRun, findRun, rejectRun, type Decision } from '../../engine/scheduler/store.js';
import { enqueueWorkflowRun, type StartedRunRow } from '../../queue/enqueue.js';
import { recordAudit, type Actor, type AuditAction } from '../audit/service.js';
import { checkStartable } from './service.js';
import { workflowForStart } from './store.js';

/** Starts a `manual` run of the workflow on behalf of this user (403/404/402/422 as the API's start). */
export async function startRunAsUser(db: Db, a: { accountId: string; workflowId: string; actor: Actor }): Promise<StartedRunRow> {
  return db.transaction((tx) => startManual(tx, a, null), { replayable: true, name: 'start run' });
}

async function startManual(tx: Queryable, a: { accountId: string; workflowId: string; actor: Actor }, retryOf: string | null): Promise<StartedRunRow> {
  await checkStartable(tx, a.accountId, a.workflowId);
  const run = await enqueueWorkflowRun(tx, {
    accountId: a.accountId,
    workflowId: a.workflowId,
    trigger: 'manual',
    keyId: null,
    startedByUser: a.actor.kind === 'user' ? a.actor.id : null,
    startDelayMs: 0,
    retryOf,
  });
  await recordAudit(tx, {
    accountId: a.accountId,
    actor: a.actor,
    action: 'run.started',
    objectKind: 'run',
    objectId: run.id,
    // (`run_again_of`: the key entries have carried since the hub's first "Run again".)
    detail: retryOf ? { workflow_id: a.workflowId, trigger: 'manual', run_again_of: retryOf } : { workflow_id: a.workflowId, trigger: 'manual' },
  });
  return run;
}

/**
 * Retries a run ("Run again" in the hub, `runs retry`): a new `manual` run of the same workflow
 * with the same definition (the retried run's blocks and edges) and the same input (runs take
 * none: the API's start takes none, a schedule passes none), by this actor, naming the run it
 * retries (retry_of), whoever started that one (API, schedule, a person, an earlier retry). It is
 * a manual start through startManual, so the checks and limits of any manual start apply (the
 * workflow still there with blocks, the account's credit, under the account's lock; the API's run
 * limits count `api` runs only). Refused (409) for a run not ended, one that succeeded (start it
 * afresh instead), and one whose workflow was deleted. A run may be retried more than once: each
 * retry is a new run, and the original names the newest.
 */
export async function retryRun(db: Db, a: { accountId: string; runId: string; actor: Actor }): Promise<StartedRunRow> {
  return db.transaction(async (tx) => {
    const run = found(await findRun(tx, a.runId, a.accountId), 'run');
    if (!canRetry(run.status)) {
      throw new ApiError(
        'run_cannot_run_again',
        isFinal(run.status)
          ? 'This run succeeded, so there is nothing to run again; start a new run of its workflow instead.'
          : `This run has not ended yet (${run.status}); it can be run again once it has failed, stopped, been cancelled or rejected.`,
      );
    }
    if (!(await workflowForStart(tx, a.accountId, run.workflow_id))) {
      throw new ApiError('run_cannot_run_again', 'The workflow of this run has been deleted, so it cannot run again.');
    }
    return startManual(tx, { accountId: a.accountId, workflowId: run.workflow_id, actor: a.actor }, run.id);
  }, { replayable: true, name: 'retry run' });
}

export type RunMove = 'approve' | 'reject' | 'cancel';

const MOVES: Record<RunMove, { act: (tx: Queryable, accountId: string, runId: string, d: Decision) => Promise<boolean>; audit: AuditAction }> = {
  approve: { act: approveRun, audit: 'run.approved' },
  reject: { act: rejectRun, audit: 'run.rejected' },
  cancel: { act: cancelRun, audit: 'run.cancelled' },
};

/** Why this run cannot make this move, as the hub's error; null when it can. */
function refusal(move: RunMove, runId: string, status: RunStatus): ApiError | null {
  if (move === 'cancel') {
    return isFinal(status) ? new ApiError('run_already_final', `Run ${runId} has already ended (${status}); it cannot be cancelled.`) : null;
  }
  return status === 'awaiting_approval'
    ? null
    : new ApiError('run_not_awaiting_approval', `Run ${runId} is ${status}; only a run awaiting approval can be ${move === 'approve' ? 'approved' : 'rejected'}.`);
}

/**
 * Approves, rejects or cancels a run of the account (hub user or operator); returns the status it
 * moved from. An approval may carry the text to go on with (`text`: the draft as the approver
 * edited it), a rejection a reason; both are kept on the approval step. The audit entry says
 * that the text was edited (not the text: it is the account's content) and gives the reason.
 */
export async function moveRun(
  db: Db,
  a: { accountId: string; runId: string; move: RunMove; actor: Actor; text?: string | null; reason?: string | null },
): Promise<RunStatus> {
  const decision: Decision = { userId: a.actor.kind === 'user' ? a.actor.id : null, text: a.text ?? null, reason: a.reason?.trim() || null };
  return db.transaction(async (tx) => {
    const run = found(await findRun(tx, a.runId, a.accountId), 'run');
    const refused = refusal(a.move, run.id, run.status);
    if (refused) throw refused;
    if (!(await MOVES[a.move].act(tx, a.accountId, run.id, decision))) {
      // It moved since the read (a worker finished it, someone else acted): say what it is now.
      const now = await findRun(tx, a.runId, a.accountId);
      throw refusal(a.move, run.id, now?.status ?? run.status) ?? new ApiError('run_already_final', `Run ${run.id} changed while this request was made; reload it.`);
    }
    await recordAudit(tx, {
      accountId: a.accountId,
      actor: a.actor,
      action: MOVES[a.move].audit,
      objectKind: 'run',
      objectId: run.id,
      detail: {
        from: run.status,
        ...(a.move === 'approve' && decision.text !== null ? { edited: true } : {}),
        ...(a.move === 'reject' && decision.reason ? { reason: decision.reason } : {}),
      },
    });
    return run.status;
  }, { replayable: true, name: 'move run' });
}
