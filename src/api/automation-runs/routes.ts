// Automation runs, read side: GET /automations/{id}/runs and GET /automation-runs/{id}. One run per
// contact each time the contact goes through the automation. The route file is the contract.
import type { AppDeps } from '../../http/deps.js';
import { found, notFound } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { automationExists } from '../../services/automations/read-store.js';
import { automationRunDetail, renderRun } from './render.js';
import { AutomationRun, AutomationRunDetail, IdParams, ListRunsQuery } from './schemas.js';
import { listAutomationRuns, type AutomationRunRow } from '../../services/automation-runs/read-store.js';

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
      return found(await automationRunDetail(deps.db, authOf(request).accountId, request.params.id), 'automation run');
    },
  );
}
