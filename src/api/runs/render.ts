// A workflow run as a list shows it: /v1's runs and the hub's runs screen (which adds the
// workflow's name and the run's own time) render the same row the same way.
import { iso, isoOrNull } from '../../lib/time.js';
import type { RunListRow } from '../../services/runs/read-store.js';
import type { RunInList } from './schemas.js';

export function renderRunInList(r: RunListRow): RunInList {
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    status: r.status,
    trigger: r.trigger,
    summary: r.summary,
    created_at: iso(r.created_at),
    started_at: isoOrNull(r.started_at),
    finished_at: isoOrNull(r.finished_at),
  };
}
