// The Automation resource as the API shows it: built only from the summary columns the store
// computes (step kinds and counters), so no step setting can reach a response by accident.
import { SENDING_STEPS } from '../../domain/automation.js';
import { iso, isoOrNull } from '../../lib/time.js';
import type { AutomationOut } from './schemas.js';
import type { AutomationRow } from '../../services/automations/read-store.js';

export function sendsOf(stepTypes: readonly string[]): AutomationOut['sends'] {
  return SENDING_STEPS.filter(([kind]) => stepTypes.includes(kind)).map(([, what]) => what);
}

export function renderAutomation(r: AutomationRow): AutomationOut {
  return {
    id: r.id,
    project_id: r.project_id,
    name: r.name,
    status: r.status,
    trigger: { type: r.trigger_type, label: r.trigger_label },
    published_version: r.published_version,
    has_unpublished_changes: r.has_unpublished_changes,
    step_count: r.step_count,
    step_types: r.step_types,
    sends: sendsOf(r.step_types),
    enrollments: { total: r.total, active: r.active, completed: r.completed },
    last_run_at: isoOrNull(r.last_run_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
