// Workflows: SQL. Lists use the (account_id, [status|project_id,] updated_at desc, id desc)
// indexes; last_run is kept on the workflow row by a trigger on workflow_runs (migration 0004).
// A workflow deleted in the hub (deleted_at, migration 0023) is not there for any of them.
// Its home is services/, below api/, hub/ and cli/: /v1 and the hub read the same rows through it.
import type { Queryable } from '../../db/db.js';
import type { WorkflowStatus } from '../../domain/workflow.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

export interface WorkflowRow {
  id: string;
  name: string;
  description: string;
  status: WorkflowStatus;
  project_id: string | null;
  updated_at: Date;
  run_id: string | null;
  run_status: string | null;
  run_at: Date | null;
}

const SELECT = `
  select w.id, w.name, w.description, w.status, w.project_id, w.updated_at,
         w.last_run_id as run_id, w.last_run_status as run_status, w.last_run_at as run_at
    from workflows w`;

export interface WorkflowFilters {
  status?: string;
  projectId?: string;
}

const ORDER = new KeysetOrder('w.updated_at', 'w.id', 'desc');

export async function listWorkflows(db: Queryable, accountId: string, filters: WorkflowFilters, page: KeysetPage): Promise<WorkflowRow[]> {
  const w = new ListSql([accountId], ['w.account_id = $1', 'w.deleted_at is null'])
    .eq('w.status', filters.status)
    .eq('w.project_id', filters.projectId)
    .after(ORDER, page);
  return db.query<WorkflowRow>(`${SELECT} where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export async function getWorkflow(db: Queryable, accountId: string, id: string): Promise<WorkflowRow | null> {
  const rows = await db.query<WorkflowRow>(`${SELECT} where w.account_id = $1 and w.id = $2 and w.deleted_at is null`, [accountId, id]);
  return rows[0] ?? null;
}
