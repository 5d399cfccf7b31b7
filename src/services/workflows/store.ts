// Workflows, write side: saving a workflow's blocks and edges (the fixture loader in bulk; the
// hub's builder and the operator's `workflows` commands one at a time: ./manage.ts), and the
// reads an edit needs. The read side of lists and GETs is read-store.ts.
import { insertRows, type Columns } from '../../db/bulk-insert.js';
import type { Queryable } from '../../db/db.js';

const WORKFLOW_COLS: Columns = [
  ['account_id', 'uuid'], ['id', 'uuid'], ['project_id', 'uuid'], ['name', 'text'], ['description', 'text'], ['status', 'text'],
  ['blocks', 'jsonb'], ['edges', 'jsonb'], ['schedule', 'text'], ['schedule_timezone', 'text'], ['schedule_next_at', 'timestamptz'],
];

/** A workflow as the builder edits it (never a deleted one). */
export interface WorkflowEditRow {
  account_id: string;
  id: string;
  project_id: string | null;
  project_name: string | null;
  name: string;
  description: string;
  status: string;
  blocks: unknown[];
  edges: unknown[];
  schedule: string | null;
  schedule_timezone: string;
  schedule_next_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A workflow's saved fields (the row's, in the code's case), as one is inserted and an edit replaces them. */
export interface WorkflowFields extends Pick<WorkflowEditRow, 'name' | 'description' | 'status' | 'blocks' | 'edges' | 'schedule'> {
  projectId: string | null;
  scheduleTimezone: string;
  scheduleNextAt: Date | null;
}

export interface WorkflowInsert extends WorkflowFields {
  id: string;
}

export async function insertWorkflows(tx: Queryable, accountId: string, rows: WorkflowInsert[]): Promise<void> {
  await insertRows(
    tx,
    'workflows',
    WORKFLOW_COLS,
    rows.map((f) => [
      accountId, f.id, f.projectId, f.name, f.description, f.status, JSON.stringify(f.blocks), JSON.stringify(f.edges),
      f.schedule, f.scheduleTimezone, f.scheduleNextAt,
    ]),
  );
}

/**
 * One live workflow by id, narrowed to an account when given (the operator's commands may leave
 * it out); `forUpdate` locks the row for the rest of the transaction.
 */
export async function findWorkflowForEdit(db: Queryable, id: string, accountId: string | null, forUpdate = false): Promise<WorkflowEditRow | null> {
  const rows = await db.query<WorkflowEditRow>(
    `select w.account_id, w.id, w.project_id, p.name as project_name, w.name, w.description, w.status, w.blocks, w.edges,
            w.schedule, w.schedule_timezone, w.schedule_next_at, w.created_at, w.updated_at
       from workflows w left join projects p on p.account_id = w.account_id and p.id = w.project_id
      where w.id = $1 and ($2::uuid is null or w.account_id = $2::uuid) and w.deleted_at is null
      ${forUpdate ? 'for no key update of w' : ''}`,
    [id, accountId],
  );
  return rows[0] ?? null;
}

// Every change moves updated_at strictly forward, even within one clock tick (PGlite's clock is
// coarse): a builder's expected_updated_at then never matches a version it has not seen.
const TOUCH = `updated_at = greatest(now(), updated_at + interval '1 millisecond')`;

export async function updateWorkflow(tx: Queryable, accountId: string, id: string, u: WorkflowFields): Promise<void> {
  await tx.query(
    `update workflows
        set project_id = $3, name = $4, description = $5, status = $6, blocks = $7::jsonb, edges = $8::jsonb,
            schedule = $9, schedule_timezone = $10, schedule_next_at = $11, ${TOUCH}
      where account_id = $1 and id = $2`,
    [accountId, id, u.projectId, u.name, u.description, u.status, JSON.stringify(u.blocks), JSON.stringify(u.edges),
      u.schedule, u.scheduleTimezone, u.scheduleNextAt],
  );
}

export async function updateWorkflowStatus(tx: Queryable, accountId: string, id: string, status: string): Promise<void> {
  await tx.query(`update workflows set status = $3, ${TOUCH} where account_id = $1 and id = $2`, [accountId, id, status]);
}

export async function updateWorkflowSchedule(
  tx: Queryable,
  accountId: string,
  id: string,
  s: { schedule: string | null; scheduleTimezone: string; scheduleNextAt: Date | null },
): Promise<void> {
  await tx.query(
    `update workflows set schedule = $3, schedule_timezone = $4, schedule_next_at = $5, ${TOUCH} where account_id = $1 and id = $2`,
    [accountId, id, s.schedule, s.scheduleTimezone, s.scheduleNextAt],
  );
}

/** Soft delete: the row stays for its runs; its schedule stops. */
export async function markWorkflowDeleted(tx: Queryable, accountId: string, id: string): Promise<void> {
  await tx.query(`update workflows set deleted_at = now(), schedule_next_at = null, ${TOUCH} where account_id = $1 and id = $2`, [
    accountId,
    id,
  ]);
}

/** Which of these project and content item ids exist in the account (what a definition may name). */
export async function existingRefs(
  db: Queryable,
  accountId: string,
  projectIds: string[],
  itemIds: string[],
): Promise<{ projects: Set<string>; items: Set<string> }> {
  const rows = await db.query<{ kind: string; id: string }>(
    `select 'project' as kind, id from projects where account_id = $1 and id = any($2::uuid[])
     union all
     select 'item' as kind, id from content_items where account_id = $1 and id = any($3::uuid[])`,
    [accountId, projectIds, itemIds],
  );
  return {
    projects: new Set(rows.filter((r) => r.kind === 'project').map((r) => r.id)),
    items: new Set(rows.filter((r) => r.kind === 'item').map((r) => r.id)),
  };
}
