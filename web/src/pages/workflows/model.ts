// The shapes /hub/api/workflows answers with.
import type { RunInList } from '../runs/model';

import { WORKFLOW_STATUSES } from '@domain/workflow';
export { WORKFLOW_STATUSES };

export interface WorkflowInList {
  id: string;
  name: string;
  description: string;
  status: string;
  project_id: string | null;
  project_name: string | null;
  block_count: number;
  updated_at: string;
  last_run: { id: string; status: string; at: string } | null;
}

export interface WorkflowBlock {
  id: string;
  kind: string;
  config: Record<string, unknown>;
  inputs: string[];
}

export interface WorkflowDetail extends WorkflowInList {
  schedule: string | null;
  blocks: WorkflowBlock[];
  recent_runs: RunInList[];
  more_runs: boolean;
}
