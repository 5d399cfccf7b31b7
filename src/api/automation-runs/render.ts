// An automation run as the API and the hub show it: the run, and the run with its steps (the
// hub's builder reads the detail too).
import type { Queryable } from '../../db/db.js';
import { iso, isoOrNull } from '../../lib/time.js';
import type { AutomationRun, AutomationRunDetail, AutomationRunStep } from './schemas.js';
import {
  STATUS_LABELS,
  getAutomationRun,
  getAutomationRunSteps,
  runTriggerLabel,
  type AutomationRunRow,
  type AutomationRunStepRow,
} from '../../services/automation-runs/read-store.js';

type RunState = Pick<AutomationRun, 'status' | 'status_label' | 'test' | 'version' | 'started_at' | 'finished_at' | 'next_at' | 'error'>;

/** Where a run stands, as every list of runs shows it (here and the hub's contact page). */
export function renderRunState(r: Pick<AutomationRunRow, 'status' | 'test' | 'version' | 'started_at' | 'finished_at' | 'next_at' | 'error'>): RunState {
  return {
    status: r.status,
    status_label: STATUS_LABELS[r.status],
    test: r.test,
    version: r.version,
    started_at: iso(r.started_at),
    finished_at: isoOrNull(r.finished_at),
    next_at: isoOrNull(r.next_at),
    error: r.error,
  };
}

export function renderRun(r: AutomationRunRow): AutomationRun {
  return {
    id: r.id,
    automation_id: r.automation_id,
    contact: r.contact_id ? { id: r.contact_id, name: r.contact_name ?? '' } : null,
    started_by: r.started_by,
    ...renderRunState(r),
  };
}

function renderStep(s: AutomationRunStepRow, now: number): AutomationRunStep {
  // A step still in flight reports the time elapsed so far, like a workflow run's steps.
  const ms = s.status === 'running' && s.started_at ? Math.max(0, Math.round(now - s.started_at.getTime())) : s.ms;
  return {
    step_id: s.step_id,
    name: s.name,
    type: s.type,
    status: s.status as AutomationRunStep['status'],
    started_at: isoOrNull(s.started_at),
    ms,
    error: s.error,
  };
}

/** The run with its steps, the trigger (`t`) first; null when the account has no such run. The hub's builder reads it too. */
export async function automationRunDetail(db: Queryable, accountId: string, id: string): Promise<AutomationRunDetail | null>;
/** The same with each step extended by `each` (the hub's run page), given its ledger row (null for a trigger not recorded). */
export async function automationRunDetail<S>(
  db: Queryable,
  accountId: string,
  id: string,
  each: (step: AutomationRunStep, row: AutomationRunStepRow | null) => S,
): Promise<(Omit<AutomationRunDetail, 'steps'> & { steps: S[] }) | null>;
export async function automationRunDetail(
  db: Queryable,
  accountId: string,
  id: string,
  each: (step: AutomationRunStep, row: AutomationRunStepRow | null) => unknown = (step) => step,
): Promise<(Omit<AutomationRunDetail, 'steps'> & { steps: unknown[] }) | null> {
  const run = await getAutomationRun(db, accountId, id);
  if (!run) return null;
  const rows = await getAutomationRunSteps(db, accountId, id);
  const now = Date.now();
  const steps = rows.map((s) => each(renderStep(s, now), s));
  // Every run was started by its trigger; until the engine records that step, say so anyway,
  // so `t` is always first.
  if (rows[0]?.step_id !== 't') {
    const label = await runTriggerLabel(db, accountId, id);
    steps.unshift(each({ step_id: 't', name: label, type: 'trigger', status: 'ok', started_at: iso(run.started_at), ms: 0, error: null }, null));
  }
  return { ...renderRun(run), failed_step_id: run.failed_step_id, steps };
}
