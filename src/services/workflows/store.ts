// Workflows, write side: saving a workflow's blocks and edges (the fixture loader in bulk; the
// hub's builder next). The read side (lists, GET) is the API's: src/api/workflows/store.ts.
import { insertRows, type Columns } from '../../db/bulk-insert.js';
import type { Queryable } from '../../db/db.js';

const WORKFLOW_COLS: Columns = [
  ['account_id', 'uuid'], ['id', 'uuid'], ['project_id', 'uuid'], ['name', 'text'], ['description', 'text'], ['status', 'text'],
  ['blocks', 'jsonb'], ['edges', 'jsonb'], ['schedule', 'text'], ['schedule_timezone', 'text'], ['schedule_next_at', 'timestamptz'],
];

export interface WorkflowInsert {
  id: string;
  projectId: string | null;
  name: string;
  description: string;
  status: string;
  blocks: unknown[];
  edges: unknown[];
  schedule: string | null;
  scheduleTimezone: string;
  scheduleNextAt: Date | null;
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
