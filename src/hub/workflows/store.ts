// The hub's reads of workflows: /v1's list and row (src/services/workflows/read-store.ts) with what the
// hub's screens add: the project's name, the number of blocks, and for one workflow its blocks
// and edges. The list walks the same (account_id, [status,] updated_at desc, id desc) indexes.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';
import type { WorkflowRow } from '../../services/workflows/read-store.js';

export interface HubWorkflowRow extends WorkflowRow {
  project_name: string | null;
  block_count: number;
}

export interface HubWorkflowDetailRow extends HubWorkflowRow {
  blocks: unknown;
  edges: unknown;
  schedule: string | null;
}

const SELECT = `
  select w.id, w.name, w.description, w.status, w.project_id, w.updated_at,
         w.last_run_id as run_id, w.last_run_status as run_status, w.last_run_at as run_at,
         p.name as project_name,
         case when jsonb_typeof(w.blocks) = 'array' then jsonb_array_length(w.blocks) else 0 end as block_count`;
const FROM = `from workflows w left join projects p on p.account_id = w.account_id and p.id = w.project_id`;

const ORDER = new KeysetOrder('w.updated_at', 'w.id', 'desc');

export async function listHubWorkflows(
  db: Queryable,
  accountId: string,
  f: { status?: string; projectId?: string; search?: string },
  page: KeysetPage,
): Promise<HubWorkflowRow[]> {
  const w = new ListSql([accountId], ['w.account_id = $1', 'w.deleted_at is null'])
    .eq('w.status', f.status)
    .eq('w.project_id', f.projectId)
    .contains('w.name', f.search)
    .after(ORDER, page);
  return db.query<HubWorkflowRow>(`${SELECT} ${FROM} where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export async function getHubWorkflow(db: Queryable, accountId: string, id: string): Promise<HubWorkflowDetailRow | null> {
  const rows = await db.query<HubWorkflowDetailRow>(
    `${SELECT}, w.blocks, w.edges, w.schedule ${FROM} where w.account_id = $1 and w.id = $2 and w.deleted_at is null`,
    [accountId, id],
  );
  return rows[0] ?? null;
}
