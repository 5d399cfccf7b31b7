// The automations screens' words for the server's enums (imported from src/domain, never retyped):
// the status filters, and a run's status in Run history's words.
import { AUTOMATION_STATUSES, AUTOMATION_RUN_STATUSES as RUN_STATUSES } from '@domain/automation';
import type { AutomationRun } from '../../data/automations';
export { AUTOMATION_STATUSES, RUN_STATUSES };

/** Run history's words for the run status filter (the same as each run's status_label). */
export const RUN_STATUS_WORDS: Record<AutomationRun['status'], string> = {
  running: 'Running',
  waiting: 'Waiting',
  succeeded: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
  skipped: 'Did not meet the Run only if criteria',
};

export const isActive = (s: AutomationRun['status']) => s === 'running' || s === 'waiting';
