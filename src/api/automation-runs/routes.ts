// Automation runs, read side: GET /automations/{id}/runs and GET /automation-runs/{id}. One run per
// contact each time the contact goes through the automation. The route file is the contract.
import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { DateTime, ListEnvelope, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { iso, isoOrNull } from '../../lib/time.js';
import { automationExists } from '../automations/store.js';
import { AUTOMATION_RUN_STATUSES, AUTOMATION_STEP_STATUSES } from '../../domain/automation.js';
import {
  STATUS_LABELS,
  getAutomationRun,
  getAutomationRunSteps,
  listAutomationRuns,
  runTriggerLabel,
  type AutomationRunRow,
  type AutomationRunStepRow,
} from './store.js';

const RunStatus = StringEnum(AUTOMATION_RUN_STATUSES);

const runFields = {
  id: Uuid,
  automation_id: Uuid,
  contact: Nullable(
    Type.Object({ id: Uuid, name: Type.String() }, { description: 'null for a run with no contact (a scheduled run).' }),
  ),
  status: RunStatus,
  status_label: Type.String({ description: 'The status in the words Run history uses.' }),
  started_by: Type.String({ description: 'The trigger, the person who enrolled the contact, or the API key (name and truncated prefix).' }),
  test: Type.Boolean({ description: 'true for a test run from the builder, which sends only to the person testing.' }),
  version: Type.Integer({ description: "The published version it runs; 0 for a builder's test of the draft, which runs no published version." }),
  started_at: DateTime,
  finished_at: Nullable(DateTime),
  next_at: Nullable(DateTime),
  error: Nullable(Type.String()),
};
export const AutomationRun = Type.Object(runFields, { title: 'AutomationRun' });
export const AutomationRunDetail = Type.Object(
  {
    ...runFields,
    failed_step_id: Nullable(Type.String({ description: 'For a failed run, the step it stopped at.' })),
    steps: Type.Array(
      Type.Object({
        step_id: Type.String({ description: "The step's id in the automation; t is the trigger." }),
        name: Type.String(),
        type: Type.String(),
        status: StringEnum(AUTOMATION_STEP_STATUSES),
        started_at: Nullable(DateTime),
        ms: Type.Integer(),
        error: Nullable(Type.String()),
      }),
      { description: 'Steps run so far, in order, the trigger first; what a step sent is omitted.' },
    ),
  },
  { title: 'AutomationRunDetail' },
);
type RunOut = Static<typeof AutomationRun>;
type DetailOut = Static<typeof AutomationRunDetail>;
type StepOut = DetailOut['steps'][number];

const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
const ListRunsQuery = Type.Object({ ...ListQuery, status: Type.Optional(RunStatus) }, { additionalProperties: false });

export function renderRun(r: AutomationRunRow): RunOut {
  return {
    id: r.id,
    automation_id: r.automation_id,
    contact: r.contact_id ? { id: r.contact_id, name: r.contact_name ?? '' } : null,
    status: r.status,
    status_label: STATUS_LABELS[r.status],
    started_by: r.started_by,
    test: r.test,
    version: r.version,
    started_at: iso(r.started_at),
    finished_at: isoOrNull(r.finished_at),
    next_at: isoOrNull(r.next_at),
    error: r.error,
  };
}

function renderStep(s: AutomationRunStepRow, now: number): StepOut {
  // A step still in flight reports the time elapsed so far, like a workflow run's steps.
  const ms = s.status === 'running' && s.started_at ? Math.max(0, Math.round(now - s.started_at.getTime())) : s.ms;
  return {
    step_id: s.step_id,
    name: s.name,
    type: s.type,
    status: s.status as StepOut['status'],
    started_at: isoOrNull(s.started_at),
    ms,
    error: s.error,
  };
}

/** The run with its steps, the trigger (`t`) first; null when the account has no such run. The hub's builder reads it too. */
export async function automationRunDetail(db: Queryable, accountId: string, id: string): Promise<DetailOut | null> {
  const run = await getAutomationRun(db, accountId, id);
  if (!run) return null;
  const rows = await getAutomationRunSteps(db, accountId, id);
  const now = Date.now();
  const steps = rows.map((s) => renderStep(s, now));
  // Every run was started by its trigger; until the engine records that step, say so anyway,
  // so `t` is always first.
  if (steps[0]?.step_id !== 't') {
    const label = await runTriggerLabel(db, accountId, id);
    steps.unshift({ step_id: 't', name: label, type: 'trigger', status: 'ok', started_at: iso(run.started_at), ms: 0, error: null });
  }
  return { ...renderRun(run), failed_step_id: run.failed_step_id, steps };
}

export function registerAutomationRunRoutes(app: App, deps: AppDeps): void {
  const runs = listByTime(deps.cursors, (r: AutomationRunRow) => r.started_at);
  app.get(
    '/automations/:id/runs',
    {
      config: meta({ scope: 'automations:read', write: false }),
      schema: {
        operationId: 'listAutomationRuns',
        summary: "List an automation's runs",
        description: 'Newest first; test runs included with test: true.',
        tags: ['Automation runs'],
        params: IdParams,
        querystring: ListRunsQuery,
        response: v1Responses({ 200: ListEnvelope(AutomationRun, 'AutomationRunList') }),
      },
    },
    async (request) => {
      const automationId = request.params.id;
      const { status } = request.query;
      const page = runs.start(request, request.query, { automation_id: automationId, status });
      if (!(await automationExists(deps.db, page.accountId, automationId))) throw notFound('automation');
      const rows = await listAutomationRuns(deps.db, page.accountId, automationId, status, page);
      return runs.page(page, rows, renderRun);
    },
  );

  app.get(
    '/automation-runs/:id',
    {
      config: meta({ scope: 'automations:read', write: false }),
      schema: {
        operationId: 'getAutomationRun',
        summary: 'Get an automation run',
        description: 'The run with its steps, the trigger (t) first. What a step sent is never included.',
        tags: ['Automation runs'],
        params: IdParams,
        response: v1Responses({ 200: AutomationRunDetail }),
      },
    },
    async (request) => {
      // A run stays readable after its automation is deleted in the hub: it ends `stopped`, and a
      // client polling a run it enrolled must be able to see why.
      const detail = await automationRunDetail(deps.db, authOf(request).accountId, request.params.id);
      if (!detail) throw notFound('automation run');
      return detail;
    },
  );
}
