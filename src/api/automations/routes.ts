// Automations, read side: GET /automations and GET /automations/{id}. The API never changes an
// automation (spec rule 6); the operator commands in src/cli/automations.ts do. The route file is
// the contract.
import type { AppDeps } from '../../http/deps.js';
import { found } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { getAutomation, listAutomations, type AutomationRow } from '../../services/automations/read-store.js';
import { Automation, IdParams, ListAutomationsQuery } from './schemas.js';
import { renderAutomation } from './summary.js';

export function registerAutomationRoutes(app: App, deps: AppDeps): void {
  const automations = listByTime(deps.cursors, (r: AutomationRow) => r.updated_at);
  app.get(
    '/automations',
    {
      config: meta({ scope: 'automations:read', write: false }),
      schema: {
        operationId: 'listAutomations',
        summary: 'List automations',
        description: 'All projects, most recently changed first, drafts included; step settings never included.',
        tags: ['Automations'],
        querystring: ListAutomationsQuery,
        response: v1Responses({ 200: ListEnvelope(Automation, 'AutomationList') }),
      },
    },
    async (request) => {
      const { status, project_id } = request.query;
      const page = automations.start(request, request.query, { status, project_id });
      const rows = await listAutomations(deps.db, page.accountId, { status, projectId: project_id }, page);
      return automations.page(page, rows, renderAutomation);
    },
  );

  app.get(
    '/automations/:id',
    {
      config: meta({ scope: 'automations:read', write: false }),
      schema: {
        operationId: 'getAutomation',
        summary: 'Get an automation',
        tags: ['Automations'],
        params: IdParams,
        response: v1Responses({ 200: Automation }),
      },
    },
    async (request) => {
      return renderAutomation(found(await getAutomation(deps.db, authOf(request).accountId, request.params.id), 'automation'));
    },
  );
}
