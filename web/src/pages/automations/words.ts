// The automations screens' words for the server's enums (imported from src/domain, never retyped):
// the status filters, and a run's status in Run history's words (the same as each run's status_label).
import {
  ACTIVE_AUTOMATION_RUN_STATUSES,
  AUTOMATION_STATUSES,
  AUTOMATION_RUN_STATUS_LABELS as RUN_STATUS_WORDS,
  AUTOMATION_RUN_STATUSES as RUN_STATUSES,
} from '@domain/automation';
import type { AutomationRun } from '../../data/automations';
export { AUTOMATION_STATUSES, RUN_STATUSES, RUN_STATUS_WORDS };

/** Running or waiting: a run that can still be stopped. */
export const isActive = (s: AutomationRun['status']) => (ACTIVE_AUTOMATION_RUN_STATUSES as readonly string[]).includes(s);
