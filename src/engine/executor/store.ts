// SQL of the executor: what a run executes (its workflow's definition) and its step ledger.
// The step writes run inside a transaction whose first statement is the run's fence (see
// scheduler/store.ts), so none of them lands once the worker has lost the run.
import type { Queryable } from '../../db/db.js';
import type { RunStepStatus } from '../../domain/workflow.js';
import type { BlockOutput } from '../types.js';

export interface RunDefinition {
  workflow_id: string;
  key_id: string | null;
  /** null when the workflow row is gone. */
  project_id: string | null;
  workflow_found: boolean;
  blocks: unknown;
  edges: unknown;
}

/**
 * The run and its workflow (same account) in one read. The blocks and edges are the run's own
 * snapshot, taken when it was queued (migration 0023), so an edit saved meanwhile never changes
 * what it runs; runs queued before that migration have none and read the workflow's.
 */
export async function loadRunDefinition(db: Queryable, accountId: string, runId: string): Promise<RunDefinition | null> {
  const rows = await db.query<RunDefinition>(
    `select r.workflow_id, r.key_id, w.project_id, w.id is not null as workflow_found,
            coalesce(r.blocks, w.blocks) as blocks, coalesce(r.edges, w.edges) as edges
       from workflow_runs r
       left join workflows w on w.account_id = r.account_id and w.id = r.workflow_id
      where r.account_id = $1 and r.id = $2`,
    [accountId, runId],
  );
  return rows[0] ?? null;
}

export interface StepRow {
  seq: number;
  node_id: string;
  node_kind: string;
  status: RunStepStatus;
  ms: number;
  error: string | null;
  output: BlockOutput | null;
  effect_key: string | null;
  /** An approval step's edited text, set when the approver changed the draft (null: as it stood). */
  approved_text: string | null;
}

export async function loadSteps(db: Queryable, accountId: string, runId: string): Promise<StepRow[]> {
  return db.query<StepRow>(
    `select seq, node_id, node_kind, status, ms, error, output, effect_key, approved_text
       from workflow_run_steps where account_id = $1 and run_id = $2 order by seq`,
    [accountId, runId],
  );
}

export interface NewStep {
  accountId: string;
  runId: string;
  seq: number;
  nodeId: string;
  nodeKind: string;
  effectKey: string;
}

/** A block starts: its step row, `running`, before the block does anything. */
export async function insertRunningStep(tx: Queryable, s: NewStep): Promise<void> {
  await tx.query(
    `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, effect_key)
     values ($1, $2, $3, $4, $5, 'running', now(), $6)`,
    [s.accountId, s.runId, s.seq, s.nodeId, s.nodeKind, s.effectKey],
  );
}

/**
 * A block that never started because a limit stopped the run first: the step shows the reason
 * (status `skipped`, no start time), so the run detail says which block the limit fell on.
 */
export async function insertSkippedStep(tx: Queryable, s: Omit<NewStep, 'effectKey'>, error: string): Promise<void> {
  await tx.query(
    `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, finished_at, error)
     values ($1, $2, $3, $4, $5, 'skipped', now(), $6)`,
    [s.accountId, s.runId, s.seq, s.nodeId, s.nodeKind, error],
  );
}

export interface StepEnd {
  status: Extract<RunStepStatus, 'succeeded' | 'failed' | 'awaiting'>;
  ms: number;
  output?: BlockOutput | null;
  error?: string | null;
}

/** A block's result. finished_at is set for a block that ended, not for one awaiting a person. */
export async function endStep(tx: Queryable, accountId: string, runId: string, seq: number, end: StepEnd): Promise<void> {
  await tx.query(
    `update workflow_run_steps
        set status = $4, ms = $5, output = $6::jsonb, error = $7,
            finished_at = case when $4 = 'awaiting' then null else now() end
      where account_id = $1 and run_id = $2 and seq = $3`,
    [accountId, runId, seq, end.status, end.ms, end.output === undefined || end.output === null ? null : JSON.stringify(end.output), end.error ?? null],
  );
}

export interface ApprovalNoticeFacts {
  workflow_name: string;
  account_name: string;
  /** Who is told a run awaits approval: the people the block names, or the owners and admins. */
  approvers: { id: string; email: string }[];
  /** True when they are the people the block names (some of them are users of the account). */
  named: boolean;
}

/**
 * What the email telling approvers a run waits needs: the names, and who to tell — the users of
 * the account among `named` (addresses in lower case), or, when it names nobody who is (still)
 * one, the owners and admins.
 */
export async function approvalNoticeFacts(tx: Queryable, accountId: string, runId: string, named: readonly string[]): Promise<ApprovalNoticeFacts> {
  const names = await tx.query<{ workflow_name: string; account_name: string }>(
    `select w.name as workflow_name, a.name as account_name
       from workflow_runs r
       join workflows w on w.account_id = r.account_id and w.id = r.workflow_id
       join accounts a on a.id = r.account_id
      where r.account_id = $1 and r.id = $2`,
    [accountId, runId],
  );
  const people = named.length
    ? await tx.query<{ id: string; email: string }>(
        `select id, email from users where account_id = $1 and lower(email) = any ($2::text[]) order by created_at, id`,
        [accountId, [...named]],
      )
    : [];
  const approvers = people.length
    ? people
    : await tx.query<{ id: string; email: string }>(`select id, email from users where account_id = $1 and role in ('owner', 'admin') order by created_at, id`, [accountId]);
  return { workflow_name: names[0]?.workflow_name ?? '', account_name: names[0]?.account_name ?? '', approvers, named: people.length > 0 };
}
