// Workflow runs: SQL for the checks before a start and for reading runs back (the runs are
// inserted by enqueueWorkflowRun, src/queue/enqueue.ts).
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import { uuidv7 } from '../../lib/ids.js';
import { sqlList } from '../../db/sql-list.js';
import type { Tier } from '../../domain/account.js';
import { ACTIVE_RUN_STATUSES, type RunStatus, type RunTrigger } from '../../domain/workflow.js';

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

export async function listRuns(db: Queryable, accountId: string, workflowId: string, page: KeysetPage): Promise<RunListRow[]> {
  const w = new ListSql([accountId, workflowId], ['account_id = $1 and workflow_id = $2']).after(ORDER, page);
  return db.query<RunListRow>(`select ${LIST_COLUMNS} from workflow_runs where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export interface RunDetailRow extends RunListRow {
  billed_micros: number;
}

export interface RunStepRow {
  node_id: string;
  node_kind: string;
  status: string;
  started_at: Date | null;
  finished_at: Date | null;
  ms: number;
  error: string | null;
}

export async function getRun(db: Queryable, accountId: string, id: string): Promise<RunDetailRow | null> {
  const rows = await db.query<RunDetailRow>(
    `select ${LIST_COLUMNS}, billed_micros from workflow_runs where account_id = $1 and id = $2`,
    [accountId, id],
  );
  return rows[0] ?? null;
}

export async function getRunSteps(db: Queryable, accountId: string, runId: string): Promise<RunStepRow[]> {
  return db.query<RunStepRow>(
    `select node_id, node_kind, status, started_at, finished_at, ms, error
       from workflow_run_steps where account_id = $1 and run_id = $2 order by seq`,
    [accountId, runId],
  );
}

/** Pages a run created through its output.project blocks (their effect keys start with the run id). */
export async function pagesCreatedByRun(db: Queryable, accountId: string, runId: string): Promise<{ id: string; title: string; project_id: string }[]> {
  return db.query(
    `select id, title, project_id from content_items
      where account_id = $1 and kind = 'page' and attrs->>'effect_key' like $2 order by created_at, id`,
    [accountId, `${runId}:%`],
  );
}
