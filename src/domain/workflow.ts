// Workflows, their runs and the runs' steps (docs/architecture.md §10.3): the statuses, the run
// state machine (finality and the moves allowed) and the block kinds the engine runs.

export const WORKFLOW_STATUSES = ['draft', 'active', 'paused'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** The block kinds the engine runs; anything else would fail at run time, so it fails at save. */
export const BLOCK_KINDS = [
  'source.text',
  'source.web',
  'source.item',
  'agent',
  'transform.template',
  'approval',
  'output.project',
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

/** Block ids are referenced from templates, so they are kept to a plain, unambiguous alphabet. */
export const BLOCK_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** The validator's words when an id breaks BLOCK_ID_RE. */
export const BLOCK_ID_RULE = "1 to 64 letters, digits, '_', '.' or '-' (starting with a letter or digit)";

/** A `{{block_id}}` placeholder in a block's template (the engine renders these; the validator checks them). */
export const BLOCK_PLACEHOLDER_RE = /\{\{\s*([A-Za-z0-9][A-Za-z0-9_.-]{0,63})\s*\}\}/g;

/** Config fields holding `{{block_id}}` templates, by kind: the names they use must feed the block. */
export const TEMPLATE_FIELDS: Partial<Record<BlockKind, string>> = { agent: 'prompt', 'transform.template': 'template' };

export const RUN_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'partial',
  'awaiting_approval',
  'rejected',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_TRIGGERS = ['api', 'manual', 'schedule', 'chat'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** A workflow run's step (workflow_run_steps.status); not an automation run's step. */
export const RUN_STEP_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'skipped', 'awaiting'] as const;
export type RunStepStatus = (typeof RUN_STEP_STATUSES)[number];

/** A step in flight or awaiting approval: ending its run early fails these too. */
export const UNFINISHED_RUN_STEP_STATUSES = ['running', 'awaiting'] as const satisfies readonly RunStepStatus[];

export function isFinal(s: RunStatus): boolean {
  switch (s) {
    case 'succeeded':
    case 'failed':
    case 'partial':
    case 'rejected':
    case 'cancelled':
      return true;
    case 'queued':
    case 'running':
    case 'awaiting_approval':
      return false;
    default: {
      const never: never = s;
      throw new Error(`unknown run status ${String(never)}`);
    }
  }
}

/**
 * Whether a run may be retried ("Run again" in the hub, `runs retry`): one that ended without
 * doing all it was to do. A run that succeeded is started afresh (Run now, `runs start`); one not
 * yet ended is not repeated. A rejected run may be retried too: the hub offered "Run again" on it
 * first, and a person may want another draft to decide on.
 */
export function canRetry(s: RunStatus): boolean {
  // Every final status but success; isFinal is the exhaustive table, so a new status must be placed there.
  return isFinal(s) && s !== 'succeeded';
}

/** The longest text an approver may edit a draft to, and the longest reason for a rejection. */
export const MAX_APPROVED_TEXT = 100_000;
export const MAX_REJECT_REASON = 500;

/** Statuses a run can still leave (cancel moves any of them): queued, running, awaiting_approval. */
export const NON_FINAL: readonly RunStatus[] = RUN_STATUSES.filter((s) => !isFinal(s));

/**
 * Runs that hold a slot: they count toward the concurrency limit, and the claim picks only among
 * them (a run awaiting approval holds none until it is approved).
 */
export const ACTIVE_RUN_STATUSES = ['queued', 'running'] as const satisfies readonly RunStatus[];
export type ActiveRunStatus = (typeof ACTIVE_RUN_STATUSES)[number];

export function countsTowardConcurrency(s: RunStatus): s is ActiveRunStatus {
  return s === 'queued' || s === 'running';
}

/** Moves the engine and the operator commands may make; anything else is refused. */
export function canMove(from: RunStatus, to: RunStatus): boolean {
  if (isFinal(from)) return false;
  switch (to) {
    case 'running':
      return from === 'queued' || from === 'awaiting_approval';
    case 'awaiting_approval':
      return from === 'running';
    case 'succeeded':
    case 'failed':
    case 'partial':
      return from === 'running' || from === 'queued';
    case 'rejected':
      return from === 'awaiting_approval';
    case 'cancelled':
      return true;
    case 'queued':
      return false;
    default: {
      const never: never = to;
      throw new Error(`unknown run status ${String(never)}`);
    }
  }
}
