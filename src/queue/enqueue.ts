// Queueing work (docs/architecture.md §9.1): the only two ways a workflow run or an automation run
// comes to exist. Every start (the API, `runs start`, a cron schedule, an enrollment, a trigger, a
// test run) comes through here, so a new run always wakes the workers on commit and always has the
// columns the claim reads. Call inside the transaction that decided to start the run.
import type { Queryable } from '../db/db.js';
import { uuidv7 } from '../lib/ids.js';
import type { RunTrigger } from '../domain/workflow.js';
import { insertAutomationRuns, insertWorkflowRun, notifyRuns, touchLastRunAt, type StartedRunRow } from './enqueue-store.js';

export type { StartedRunRow } from './enqueue-store.js';

export interface NewWorkflowRun {
  accountId: string;
  workflowId: string;
  trigger: RunTrigger;
  keyId: string | null;
  startedByUser?: string | null;
  /** Delay before a worker may claim it. */
  startDelayMs: number;
  /**
   * The run this one retries ("Run again", `runs retry`): the new run runs that run's blocks and
   * edges (its snapshot), not the workflow as saved now.
   */
  retryOf?: string | null;
}

/** Inserts a queued run and wakes the workers (the notification is delivered on commit). */
export async function enqueueWorkflowRun(tx: Queryable, r: NewWorkflowRun): Promise<StartedRunRow> {
  const row = await insertWorkflowRun(tx, {
    accountId: r.accountId,
    id: uuidv7(),
    workflowId: r.workflowId,
    trigger: r.trigger,
    keyId: r.keyId,
    startedByUser: r.startedByUser ?? null,
    startDelayMs: r.startDelayMs,
    retryOf: r.retryOf ?? null,
  });
  await notifyRuns(tx);
  return row;
}

export interface NewAutomationRuns {
  accountId: string;
  automationId: string;
  /** The automation version the runs are pinned to. */
  version: number;
  /** How run history names the start: "API", "Schedule", "Test by Olivia". */
  startedBy: string;
  keyId?: string | null;
  /** One run per entry; contactId null for a run with no contact (a schedule). */
  runs: ReadonlyArray<{ id: string; contactId: string | null }>;
  /**
   * A test run: it sends only to this address, and moves no counter (not last_run_at; the
   * one-active-run index leaves test runs out).
   */
  testerEmail?: string;
  /**
   * A test of the draft: the draft's trigger and steps as they are now, run instead of the
   * version's (`version` then says which published version, if any, it is not).
   */
  definition?: { trigger: unknown; steps: unknown };
  /** The Run-only-if filter did not match: recorded `skipped`, never executed, wakes no one. */
  skipped?: boolean;
  error?: string | null;
}

/** Inserts the runs (running, ready now; or skipped) and wakes the workers on commit. */
export async function enqueueAutomationRun(tx: Queryable, r: NewAutomationRuns): Promise<void> {
  if (!r.runs.length) return;
  const test = r.testerEmail !== undefined;
  await insertAutomationRuns(tx, {
    accountId: r.accountId,
    automationId: r.automationId,
    version: r.version,
    startedBy: r.startedBy,
    keyId: r.keyId ?? null,
    status: r.skipped ? 'skipped' : 'running',
    test,
    testerEmail: r.testerEmail ?? null,
    definition: r.definition ?? null,
    error: r.error ?? null,
    ids: r.runs.map((x) => x.id),
    contactIds: r.runs.map((x) => x.contactId),
  });
  if (!test) await touchLastRunAt(tx, r.accountId, r.automationId);
  if (!r.skipped) await notifyRuns(tx);
}
