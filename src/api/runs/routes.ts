// Workflow runs: start a run, list a workflow's runs, get a run. The route file is the contract.
import type { AppDeps } from '../../http/deps.js';
import { found, notFound } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, optionalBody, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { idempotent } from '../../idempotency/index.js';
import { iso } from '../../lib/time.js';
import { getWorkflow } from '../../services/workflows/read-store.js';
import { startApiRun } from '../../services/runs/service.js';
import { IdParams, ListRunsQuery, RunDetail, RunInList, StartBody, StartedRun, StartHeaders } from './schemas.js';
import { getRun, getRunSteps, listRuns, type RunListRow, type RunStepRow } from '../../services/runs/read-store.js';
import { renderRunInList } from './render.js';

function stepMs(s: RunStepRow, now: number): number {
  // A step still running reports the time elapsed so far.
  if (s.status === 'running' && s.started_at) return Math.max(0, Math.round(now - s.started_at.getTime()));
  return s.ms;
}

export function registerRunRoutes(app: App, deps: AppDeps): void {
  const runs = listByTime(deps.cursors, (r: RunListRow) => r.created_at);
  app.post(
    '/workflows/:id/runs',
    {
      config: meta({ scope: 'workflows:run', write: true }),
      schema: {
        operationId: 'startRun',
        summary: 'Start a run',
        description:
          'Starts a run of the workflow; answers at once with the queued run. Idempotency-Key is required: a retry with the same key ' +
          'and request returns the first answer with Idempotent-Replay: true and never starts a second run.',
        tags: ['Workflow runs'],
        params: IdParams,
        headers: StartHeaders,
        body: optionalBody(StartBody),
        response: v1Responses({ 202: StartedRun }, [402, 409, 415, 413, 422]),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const auth = authOf(request);
      const run = await idempotent(
        request,
        reply,
        {
          db: deps.db,
          accountId: auth.accountId,
          lockTimeoutMs: deps.config.idempotencyLockTimeoutMs,
          required: true,
          replayable: { name: 'start run' },
        },
        async (tx) => {
          const r = await startApiRun(tx, {
            accountId: auth.accountId,
            keyId: auth.keyId,
            workflowId: id,
            startDelayMs: deps.config.engine.startDelayMs,
          });
          return {
            status: 202,
            body: { id: r.id, workflow_id: r.workflow_id, status: r.status, trigger: r.trigger, created_at: iso(r.created_at) },
          };
        },
      );
      return run;
    },
  );

  app.get(
    '/workflows/:id/runs',
    {
      config: meta({ scope: 'workflows:read', write: false }),
      schema: {
        operationId: 'listWorkflowRuns',
        summary: "List a workflow's runs",
        description: 'Newest first, however started.',
        tags: ['Workflow runs'],
        params: IdParams,
        querystring: ListRunsQuery,
        response: v1Responses({ 200: ListEnvelope(RunInList, 'RunList') }),
      },
    },
    async (request) => {
      const workflowId = request.params.id;
      const page = runs.start(request, request.query, { workflow_id: workflowId });
      if (!(await getWorkflow(deps.db, page.accountId, workflowId))) throw notFound('workflow');
      const rows = await listRuns(deps.db, page.accountId, workflowId, page);
      return runs.page(page, rows, renderRunInList);
    },
  );

  app.get(
    '/runs/:id',
    {
      config: meta({ scope: 'workflows:read', write: false }),
      schema: {
        operationId: 'getRun',
        summary: 'Get a run',
        description: 'Poll until status is final; every few seconds is sufficient.',
        tags: ['Workflow runs'],
        params: IdParams,
        response: v1Responses({ 200: RunDetail }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const accountId = authOf(request).accountId;
      const run = found(await getRun(deps.db, accountId, id), 'run');
      const steps = await getRunSteps(deps.db, accountId, id);
      const now = Date.now();
      return {
        ...renderRunInList(run),
        billed_micros: run.billed_micros,
        steps: steps.map((s) => ({ node_id: s.node_id, node_kind: s.node_kind, status: s.status as never, ms: stepMs(s, now), error: s.error })),
      };
    },
  );
}
