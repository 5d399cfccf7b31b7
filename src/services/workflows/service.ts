// Workflows: saving validated workflows (./validate.ts checks the blocks and edges first). A
// scheduled workflow is saved with its next occurrence, so the scheduler finds it due in time.
import type { Queryable } from '../../db/db.js';
import { nextOccurrence } from '../../engine/schedules/cron.js';
import { insertWorkflows } from './store.js';
import type { BlockSpec, WorkflowSpec } from './validate.js';

/** A validated workflow with its new id and its project's id (refs already resolved by the caller). */
export interface WorkflowToSave {
  id: string;
  projectId: string | null;
  spec: WorkflowSpec;
  /** The blocks as stored (a fixture's item refs swapped for item ids). */
  blocks: BlockSpec[];
}

export async function saveWorkflows(tx: Queryable, accountId: string, workflows: WorkflowToSave[]): Promise<void> {
  await insertWorkflows(
    tx,
    accountId,
    workflows.map(({ id, projectId, spec: f, blocks }) => ({
      id,
      projectId,
      name: f.name,
      description: f.description,
      status: f.status,
      blocks,
      edges: f.edges,
      schedule: f.schedule,
      scheduleTimezone: f.scheduleTimezone,
      scheduleNextAt: f.schedule === null ? null : nextOccurrence(f.schedule, f.scheduleTimezone, new Date()),
    })),
  );
}
