// The shapes the automations screens read (src/hub/automations/routes.ts, /v1's Automation and
// AutomationRun): status, version and counters; runs per contact with Run history's words.
import { AUTOMATION_STATUSES, AUTOMATION_RUN_STATUSES as RUN_STATUSES } from '@domain/automation';
export { AUTOMATION_STATUSES, RUN_STATUSES };

export interface Automation {
  id: string;
  project_id: string;
  name: string;
  status: (typeof AUTOMATION_STATUSES)[number];
  trigger: { type: string | null; label: string };
  published_version: number;
  has_unpublished_changes: boolean;
  step_count: number;
  step_types: string[];
  sends: string[];
  enrollments: { total: number; active: number; completed: number };
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AutomationRun {
  id: string;
  automation_id: string;
  contact: { id: string; name: string } | null;
  status: (typeof RUN_STATUSES)[number];
  status_label: string;
  started_by: string;
  test: boolean;
  version: number;
  started_at: string;
  finished_at: string | null;
  next_at: string | null;
  error: string | null;
}

export interface AutomationDetail {
  automation: Automation;
  runs: { data: AutomationRun[]; has_more: boolean; next_cursor: string | null };
}

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
