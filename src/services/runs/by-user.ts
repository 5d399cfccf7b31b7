// A person acting on workflow runs: the hub's "Run now", and approve, reject, cancel from the hub
// or the operator CLI (the actor says who). Each change and its audit entry are one transaction.
// The start makes the checks the API's start makes for the workflow and the account's credit
// (checkStartable); the API's per-minute and concurrency limits count `api` runs only, so a
// manual start meets neither. The moves follow the run state machine, and the UPDATE re-checks
// the status, so a run that moved in between is refused.
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, found } from '../../domain/errors.js';
import { isFinal, type RunStatus } from '../../domain/workflow.js';
import { approveRun, cancelRun, findRun, rejectRun } from '../../engine/scheduler/store.js';
import { enqueueWorkflowRun, type StartedRunRow } from '../../queue/enqueue.js';
import { recordAudit, type Actor, type AuditAction } from '../audit/service.js';
import { checkStartable } from './service.js';

/** Starts a `manual` run of the workflow on behalf of this user (403/404/402/422 as the API's start). */
export async function startRunAsUser(db: Db, a: { accountId: string; workflowId: string; actor: Actor }): Promise<StartedRunRow> {
  return db.transaction(async (tx) => {
    await checkStartable(tx, a.accountId, a.workflowId);
    const run = await enqueueWorkflowRun(tx, {
      accountId: a.accountId,
      workflowId: a.workflowId,
      trigger: 'manual',
      keyId: null,
      startedByUser: a.actor.kind === 'user' ? a.actor.id : null,
      startDelayMs: 0,
    });
    await recordAudit(tx, {
      accountId: a.accountId,
      actor: a.actor,
      action: 'run.started',
      objectKind: 'run',
      objectId: run.id,
      detail: { workflow_id: a.workflowId, trigger: 'manual' },
    });
    return run;
  }, { replayable: true, name: 'start run' });
}

export type RunMove = 'approve' | 'reject' | 'cancel';

const MOVES: Record<RunMove, { act: (tx: Queryable, accountId: string, runId: string) => Promise<boolean>; audit: AuditAction }> = {
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

/** Approves, rejects or cancels a run of the account (hub user or operator); returns the status it moved from. */
export async function moveRun(db: Db, a: { accountId: string; runId: string; move: RunMove; actor: Actor }): Promise<RunStatus> {
  return db.transaction(async (tx) => {
    const run = found(await findRun(tx, a.runId, a.accountId), 'run');
    const refused = refusal(a.move, run.id, run.status);
    if (refused) throw refused;
    if (!(await MOVES[a.move].act(tx, a.accountId, run.id))) {
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
      detail: { from: run.status },
    });
    return run.status;
  }, { replayable: true, name: 'move run' });
}
