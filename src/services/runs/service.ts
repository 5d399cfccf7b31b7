// Starting a workflow run, by any trigger. Through the API: the checks of the spec's Start-a-run
// row, in order, inside the idempotent transaction (so a replay of a started run never meets its
// own limits). By hand (CLI, hub, chat): no API limit applies (those count `api` runs only). The
// scheduler starts `schedule` runs itself (the engine sits below the services).
import type { Db, Queryable } from '../../db/db.js';
import { accountOutOfCredit, keyCapReached } from '../../engine/billing/index.js';
import { findWorkflowToStart } from '../../engine/scheduler/store.js';
import { ApiError, found } from '../../domain/errors.js';
import type { RunTrigger } from '../../domain/workflow.js';
import { limitsFor } from '../../limits/tiers.js';
import { enqueueWorkflowRun, type StartedRunRow } from '../../queue/enqueue.js';
import { apiRunCounts, lockAccountForStart, workflowForStart, type AccountForStart } from './store.js';
import { missing, Refusal } from '../refusal.js';

export interface StartInput {
  accountId: string;
  keyId: string;
  workflowId: string;
  startDelayMs: number;
}

/**
 * The checks every start by a caller of the account makes (the API and the hub's "Run now"):
 * the workflow exists and has blocks, and the account (locked for the rest of the transaction)
 * has credit left.
 */
export async function checkStartable(tx: Queryable, accountId: string, workflowId: string): Promise<AccountForStart> {
  const wf = found(await workflowForStart(tx, accountId, workflowId), 'workflow');
  if (wf.blocks === 0) throw new ApiError('workflow_empty', 'This workflow has no blocks, so there is nothing to run.');

  const account = await lockAccountForStart(tx, accountId);
  if (await accountOutOfCredit(tx, accountId)) {
    throw new ApiError('account_out_of_credit', 'The account is out of AI credit; no run was started.');
  }
  return account;
}

export async function startApiRun(tx: Queryable, input: StartInput): Promise<StartedRunRow> {
  const account = await checkStartable(tx, input.accountId, input.workflowId);
  if (await keyCapReached(tx, input.accountId, input.keyId)) {
    throw new ApiError('key_spend_cap_reached', "This key has used its monthly spend cap; no run was started.");
  }

  const limits = limitsFor(account.tier, account);
  const counts = await apiRunCounts(tx, input.accountId);
  if (limits.runStartsPerMinute !== null && counts.recent >= limits.runStartsPerMinute) {
    // A start fits again when the oldest start that pushes the count over leaves the 60 s window.
    // In range: recent >= the limit >= 1 (a check constraint), and recentTimes holds `recent` times.
    const oldest = counts.recentTimes[counts.recent - limits.runStartsPerMinute]!;
    const wait = Math.max(1, Math.ceil((oldest.getTime() + 60_000 - Date.now()) / 1000));
    throw new ApiError('run_rate_limited', `The account started ${counts.recent} API runs in the last minute, as many as its plan allows.`, {
      headers: { 'retry-after': String(wait) },
    });
  }
  if (limits.concurrentRuns !== null && counts.active >= limits.concurrentRuns) {
    throw new ApiError('concurrency_limited', `The account has ${counts.active} API runs queued or running, as many as its plan allows.`, {
      headers: { 'retry-after': '10' },
    });
  }
  return enqueueWorkflowRun(tx, {
    accountId: input.accountId,
    workflowId: input.workflowId,
    trigger: 'api',
    keyId: input.keyId,
    startDelayMs: input.startDelayMs,
  });
}

/** How a run is started by a person rather than the API or the schedule. */
export type HandTrigger = Extract<RunTrigger, 'manual' | 'chat'>;

/**
 * Starts a run by hand (CLI `runs start`, the hub's "Run now", a chat): the workflow by id,
 * optionally narrowed to one account; `manual` unless the caller says `chat`.
 */
export async function startManualRun(
  db: Db,
  a: { workflowId: string; accountId: string | null; trigger?: HandTrigger; startedByUser?: string | null },
): Promise<{ run: StartedRunRow; accountId: string; workflowId: string }> {
  const wf = await findWorkflowToStart(db, a.workflowId, a.accountId);
  if (!wf) throw missing('workflow', a.accountId ? `no workflow ${a.workflowId} in account ${a.accountId}` : `no workflow ${a.workflowId}`);
  if (wf.block_count === 0) throw new Refusal(`workflow ${wf.id} has no blocks: add blocks before starting it`, 'workflow_empty');
  const run = await db.transaction((tx) =>
    enqueueWorkflowRun(tx, {
      accountId: wf.account_id,
      workflowId: wf.id,
      trigger: a.trigger ?? 'manual',
      keyId: null,
      startedByUser: a.startedByUser ?? null,
      startDelayMs: 0,
    }),
    { replayable: true, name: 'start run' },
  );
  return { run, accountId: wf.account_id, workflowId: wf.id };
}
