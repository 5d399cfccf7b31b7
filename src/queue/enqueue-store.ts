// The SQL of enqueue.ts: the run inserts and the notifications that wake the workers. Nothing
// else inserts workflow_runs or automation_runs rows, or sends a NOTIFY on a workers' channel.
import type { Queryable } from '../db/db.js';
import type { RunStatus, RunTrigger } from '../domain/workflow.js';
import { OUTBOX_CHANNEL, RUNS_CHANNEL } from './channels.js';

export interface WorkflowRunRow {
  accountId: string;
  id: string;
  workflowId: string;
  trigger: RunTrigger;
  keyId: string | null;
  startedByUser: string | null;
  /** Delay before a worker may claim it. */
  startDelayMs: number;
  /** The run it retries, whose blocks and edges it copies; null for a new start. */
  retryOf: string | null;
}

export interface StartedRunRow {
  id: string;
  workflow_id: string;
  status: RunStatus;
  trigger: RunTrigger;
  created_at: Date;
}

/**
 * A queued run, claimable once its start delay has passed. It takes a copy of its workflow's
 * blocks and edges as they are now: the definition it runs, whatever is saved later. A retry
 * copies the retried run's copy instead, so it runs the very definition that failed (a run from
 * before 0023 has none and, like any such run, reads the workflow's).
 */
export async function insertWorkflowRun(tx: Queryable, r: WorkflowRunRow): Promise<StartedRunRow> {
  const rows = await tx.query<StartedRunRow>(
    `insert into workflow_runs (account_id, id, workflow_id, status, trigger, summary, key_id, started_by_user, run_at, blocks, edges, retry_of)
     select $1, $2, $3, 'queued', $4, 'Queued', $5, $6, now() + ($7::int * interval '1 millisecond'),
            coalesce(o.blocks, w.blocks), coalesce(o.edges, w.edges), $8
       from workflows w
       left join workflow_runs o on o.account_id = w.account_id and o.id = $8 and o.workflow_id = w.id
      where w.account_id = $1 and w.id = $3
     returning id, workflow_id, status, trigger, created_at`,
    [r.accountId, r.id, r.workflowId, r.trigger, r.keyId, r.startedByUser, r.startDelayMs, r.retryOf],
  );
  // The callers found the workflow in this transaction; a row missing here is a bug, not a refusal.
  if (!rows[0]) throw new Error(`workflow ${r.workflowId} not found in account ${r.accountId}`);
  return rows[0];
}

export interface AutomationRunRows {
  accountId: string;
  automationId: string;
  version: number;
  startedBy: string;
  keyId: string | null;
  /** `running` (ready now) or `skipped` (recorded, finished, never executed). */
  status: 'running' | 'skipped';
  test: boolean;
  testerEmail: string | null;
  /** A test of the draft: its trigger and steps (see automation_runs.definition); null otherwise. */
  definition: { trigger: unknown; steps: unknown } | null;
  error: string | null;
  ids: readonly string[];
  contactIds: ReadonlyArray<string | null>;
}

/** Every run of one start in one statement (an enrollment of 500 contacts is one insert). */
export async function insertAutomationRuns(tx: Queryable, r: AutomationRunRows): Promise<void> {
  await tx.query(
    `insert into automation_runs
            (account_id, id, automation_id, contact_id, status, started_by, key_id, test, version, tester_email, error, finished_at, run_at, definition)
     select $1, r.id, $2, r.contact_id, $3::text, $4::text, $5::uuid, $6::boolean, $7::int, $8::text, $9::text,
            case when $3::text = 'skipped' then now() end, now(), $12::jsonb
       from unnest($10::uuid[], $11::uuid[]) as r(id, contact_id)`,
    [
      r.accountId, r.automationId, r.status, r.startedBy, r.keyId, r.test, r.version, r.testerEmail, r.error, r.ids, r.contactIds,
      r.definition === null ? null : JSON.stringify(r.definition),
    ],
  );
}

/** The automation's "last run" (a test run moves no counter, so it does not call this). */
export async function touchLastRunAt(tx: Queryable, accountId: string, automationId: string): Promise<void> {
  await tx.query(`update automations set last_run_at = now() where account_id = $1 and id = $2`, [accountId, automationId]);
}

/** Wakes the engines when the transaction commits: runs are ready (new, approved, released). */
export async function notifyRuns(tx: Queryable): Promise<void> {
  await tx.query(`select pg_notify($1, '')`, [RUNS_CHANNEL]);
}

/** Wakes the senders when the transaction commits: outbox rows are ready. */
export async function notifyOutbox(tx: Queryable): Promise<void> {
  await tx.query(`select pg_notify($1, '')`, [OUTBOX_CHANNEL]);
}

/** Wakes the engines and the senders (an account's state changed: its held work may go on). */
export async function notifyAllWorkers(tx: Queryable): Promise<void> {
  await tx.query(`select pg_notify($1, ''), pg_notify($2, '')`, [RUNS_CHANNEL, OUTBOX_CHANNEL]);
}
