// The workflow-run state machine, explicit: statuses, finality, and the moves allowed.
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

export const STEP_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'skipped', 'awaiting'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

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

export const NON_FINAL: readonly RunStatus[] = RUN_STATUSES.filter((s) => !isFinal(s));

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
