// A workflow as the API and the hub show it.
import { iso } from '../../lib/time.js';
import type { Workflow } from './schemas.js';
import type { WorkflowRow } from '../../services/workflows/read-store.js';

export function renderWorkflow(r: WorkflowRow): Workflow {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status,
    project_id: r.project_id,
    updated_at: iso(r.updated_at),
    last_run: r.run_id ? { id: r.run_id, status: r.run_status!, at: iso(r.run_at!) } : null,
  };
}
