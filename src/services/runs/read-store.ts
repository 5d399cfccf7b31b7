// Workflow runs, read side: the one home of the reads /v1, the hub and the CLI share (a run, a
// workflow's runs, the account's runs, a run's steps with or without their outputs, the pages a
// run made). It stands in services/, below api/, hub/ and cli/, so all three read the same rows
// with the same types; the runs are inserted by enqueueWorkflowRun (src/queue/enqueue.ts). The
// hub's screens are one statement per table they show, each an index lookup
// (workflow_runs_by_account, or workflow_runs_by_workflow when one workflow is asked for).
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { RunStatus, RunTrigger } from '../../domain/workflow.js';

/** A run as every list shows it. */
export interface RunListRow {
  id: string;
  workflow_id: string;
  status: RunStatus;
  trigger: RunTrigger;
  summary: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const LIST_COLUMNS = 'id, workflow_id, status, trigger, summary, created_at, started_at, finished_at';

const ORDER = new KeysetOrder('created_at', 'id', 'desc');

/** One workflow's runs, newest first (/v1). */
export async function listRuns(db: Queryable, accountId: string, workflowId: string, page: KeysetPage): Promise<RunListRow[]> {
  const w = new ListSql([accountId, workflowId], ['account_id = $1 and workflow_id = $2']).after(ORDER, page);
  return db.query<RunListRow>(`select ${LIST_COLUMNS} from workflow_runs where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export interface RunDetailRow extends RunListRow {
  billed_micros: number;
}

export async function getRun(db: Queryable, accountId: string, id: string): Promise<RunDetailRow | null> {
  const rows = await db.query<RunDetailRow>(
    `select ${LIST_COLUMNS}, billed_micros from workflow_runs where account_id = $1 and id = $2`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

/** One block's step of a run; output is null unless asked for (it can be large: /v1 never shows it). */
export interface RunStepRow {
  node_id: string;
  node_kind: string;
  status: string;
  started_at: Date | null;
  finished_at: Date | null;
  ms: number;
  error: string | null;
  output: { text?: unknown; item_id?: unknown; [k: string]: unknown } | null;
}

/** A run's steps in the order they ran, with their stored outputs when `withOutput` (the hub's timeline). */
export async function getRunSteps(db: Queryable, accountId: string, runId: string, withOutput = false): Promise<RunStepRow[]> {
  return db.query<RunStepRow>(
    `select node_id, node_kind, status, started_at, finished_at, ms, error, ${withOutput ? 'output' : 'null as output'}
       from workflow_run_steps where account_id = $1 and run_id = $2 order by seq`,
    [accountId, runId],
  );
}

/** A step as the hub's run page shows it: with the decision taken on an approval step. */
export interface HubRunStepRow extends RunStepRow {
  decided_by: string | null;
  decided_at: Date | null;
  approved_text: string | null;
  reject_reason: string | null;
}

/** A run's steps with their outputs and decisions (who decided named as the run's starter is). */
export async function getHubRunSteps(db: Queryable, accountId: string, runId: string): Promise<HubRunStepRow[]> {
  return db.query<HubRunStepRow>(
    `select s.node_id, s.node_kind, s.status, s.started_at, s.finished_at, s.ms, s.error, s.output,
            s.decided_at, s.approved_text, s.reject_reason,
            case when u.id is null then null when u.name = '' then u.email else u.name end as decided_by
       from workflow_run_steps s
       left join users u on u.account_id = s.account_id and u.id = s.decided_by_user
      where s.account_id = $1 and s.run_id = $2 order by s.seq`,
    [accountId, runId],
  );
}

/** How many of the account's runs await approval (the hub's navigation badge; a partial index). */
export async function countAwaitingApproval(db: Queryable, accountId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `select count(*)::int as n from workflow_runs where account_id = $1 and status = 'awaiting_approval'`,
    [accountId],
  );
  return rows[0]?.n ?? 0;
}

/** The newest retry of this run, if any (workflow_runs_retries). */
export async function latestRetryOf(db: Queryable, accountId: string, runId: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>(
    `select id from workflow_runs where account_id = $1 and retry_of = $2 order by created_at desc, id desc limit 1`,
    [accountId, runId],
  );
  return rows[0]?.id ?? null;
}

/** Pages a run created through its output.project blocks (their effect keys start with the run id). */
export async function pagesCreatedByRun(db: Queryable, accountId: string, runId: string): Promise<{ id: string; title: string; project_id: string }[]> {
  return db.query(
    `select id, title, project_id from content_items
      where account_id = $1 and kind = 'page' and attrs->>'effect_key' like $2 order by created_at, id`,
    [accountId, `${runId}:%`],
  );
}

/** A run of the account's list (the hub): the list's run with its workflow's name and its own time. */
export interface AccountRunRow extends RunListRow {
  workflow_name: string;
  duration_ms: number | null;
}

/**
 * The run's own time: from its start to its end (or now), less the time it spent awaiting
 * approval or held (paused_ms, plus the wait in progress).
 */
const DURATION = `case when r.started_at is null then null else greatest(0,
    (extract(epoch from coalesce(r.finished_at, now()) - r.started_at) * 1000)::bigint - r.paused_ms
    - case when r.awaiting_since is null or r.finished_at is not null then 0
           else (extract(epoch from now() - r.awaiting_since) * 1000)::bigint end)::float8 end`;

const COLUMNS = `r.id, r.workflow_id, w.name as workflow_name, r.status, r.trigger, r.summary,
  r.created_at, r.started_at, r.finished_at, ${DURATION} as duration_ms`;
const FROM = `workflow_runs r join workflows w on w.account_id = r.account_id and w.id = r.workflow_id`;

const ACCOUNT_ORDER = new KeysetOrder('r.created_at', 'r.id', 'desc');

export interface AccountRunFilters {
  workflowId?: string;
  status?: string;
  trigger?: string;
}

/** Every run of the account, newest first, with the hub's filters. */
export async function listAccountRuns(db: Queryable, accountId: string, f: AccountRunFilters, page: KeysetPage): Promise<AccountRunRow[]> {
  const w = new ListSql([accountId], ['r.account_id = $1'])
    .eq('r.workflow_id', f.workflowId)
    .eq('r.status', f.status)
    .eq('r.trigger', f.trigger)
    .after(ACCOUNT_ORDER, page);
  return db.query<AccountRunRow>(`select ${COLUMNS} from ${FROM} where ${w.sql} ${w.tail(ACCOUNT_ORDER, page)}`, w.params);
}

export interface AccountRunDetailRow extends AccountRunRow, RunDetailRow {
  started_by: string | null;
  retry_of: string | null;
  workflow_deleted: boolean;
  blocks: { id: string; kind: string; config?: Record<string, unknown> }[];
  edges: { from: string; to: string }[];
}

/** One run with its workflow's blocks and edges (the run's own snapshot first) and who started it. */
export async function getAccountRun(db: Queryable, accountId: string, id: string): Promise<AccountRunDetailRow | null> {
  const rows = await db.query<AccountRunDetailRow>(
    `select ${COLUMNS}, r.billed_micros::float8 as billed_micros,
            coalesce(r.blocks, w.blocks) as blocks, coalesce(r.edges, w.edges) as edges,
            r.retry_of, w.deleted_at is not null as workflow_deleted,
            case when u.id is null then null when u.name = '' then u.email else u.name || ' <' || u.email || '>' end as started_by
       from ${FROM}
       left join users u on u.account_id = r.account_id and u.id = r.started_by_user
      where r.account_id = $1 and r.id = $2`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

/** A content item a run's step made (output.project): its title and rendered HTML. */
export interface MadeItemRow {
  id: string;
  kind: string;
  title: string;
  html: string | null;
}

/** The items these steps made, by id; one deleted since is not there. */
export async function itemsMade(db: Queryable, accountId: string, itemIds: string[]): Promise<Map<string, MadeItemRow>> {
  if (!itemIds.length) return new Map();
  const rows = await db.query<MadeItemRow>(
    `select id, kind, title, html from content_items where account_id = $1 and id = any($2::uuid[])`,
    [accountId, itemIds],
  );
  return new Map(rows.map((r) => [r.id, r]));
}
