// The hub's reads of workflow runs: every run of the account (newest first, on
// workflow_runs_by_account, or workflow_runs_by_workflow when one workflow is asked for), and one
// run with its workflow, its steps' outputs and what an approval is waiting on. Each screen is one
// statement per table it shows, each an index lookup.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { RunStatus, RunTrigger } from '../../domain/workflow.js';

export interface HubRunRow {
  id: string;
  workflow_id: string;
  workflow_name: string;
  status: RunStatus;
  trigger: RunTrigger;
  summary: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
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

const ORDER = new KeysetOrder('r.created_at', 'r.id', 'desc');

export interface HubRunFilters {
  workflowId?: string;
  status?: string;
  trigger?: string;
}

export async function listAccountRuns(db: Queryable, accountId: string, f: HubRunFilters, page: KeysetPage): Promise<HubRunRow[]> {
  const w = new ListSql([accountId], ['r.account_id = $1'])
    .eq('r.workflow_id', f.workflowId)
    .eq('r.status', f.status)
    .eq('r.trigger', f.trigger)
    .after(ORDER, page);
  return db.query<HubRunRow>(`select ${COLUMNS} from ${FROM} where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export interface HubRunDetailRow extends HubRunRow {
  billed_micros: number;
  started_by: string | null;
  blocks: { id: string; kind: string; config?: Record<string, unknown> }[];
  edges: { from: string; to: string }[];
}

export async function getAccountRun(db: Queryable, accountId: string, id: string): Promise<HubRunDetailRow | null> {
  const rows = await db.query<HubRunDetailRow>(
    `select ${COLUMNS}, r.billed_micros::float8 as billed_micros,
            coalesce(r.blocks, w.blocks) as blocks, coalesce(r.edges, w.edges) as edges,
            case when u.id is null then null when u.name = '' then u.email else u.name || ' <' || u.email || '>' end as started_by
       from ${FROM}
       left join users u on u.account_id = r.account_id and u.id = r.started_by_user
      where r.account_id = $1 and r.id = $2`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export interface HubStepRow {
  node_id: string;
  node_kind: string;
  status: string;
  started_at: Date | null;
  finished_at: Date | null;
  ms: number;
  error: string | null;
  output: { text?: unknown; item_id?: unknown; [k: string]: unknown } | null;
}

export async function getStepsWithOutput(db: Queryable, accountId: string, runId: string): Promise<HubStepRow[]> {
  return db.query<HubStepRow>(
    `select node_id, node_kind, status, started_at, finished_at, ms, error, output
       from workflow_run_steps where account_id = $1 and run_id = $2 order by seq`,
    [accountId, runId],
  );
}

/** The rendered HTML of the pages these steps made (output.project), by item id. */
export async function pagesHtml(db: Queryable, accountId: string, itemIds: string[]): Promise<Map<string, string>> {
  if (!itemIds.length) return new Map();
  const rows = await db.query<{ id: string; html: string | null }>(
    `select id, html from content_items where account_id = $1 and id = any($2::uuid[])`,
    [accountId, itemIds],
  );
  return new Map(rows.filter((r) => r.html !== null).map((r) => [r.id, r.html!]));
}
