// Workflows, read side: GET /workflows and GET /workflows/{id}. The route file is the contract.
import type { AppDeps } from '../../http/deps.js';
import { found } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { renderWorkflow } from './render.js';
import { IdParams, ListWorkflowsQuery, Workflow } from './schemas.js';
import { getWorkflow, listWorkflows, type WorkflowRow } from '../../services/workflows/read-store.js';

export function registerWorkflowRoutes(app: App, deps: AppDeps): void {
  const workflows = listByTime(deps.cursors, (r: WorkflowRow) => r.updated_at);
  app.get(
    '/workflows',
    {
      config: meta({ scope: 'workflows:read', write: false }),
      schema: {
        operationId: 'listWorkflows',
        summary: 'List workflows',
        description: 'Every workflow in the account across projects, most recently updated first, each with last_run.',
        tags: ['Workflows'],
        querystring: ListWorkflowsQuery,
        response: v1Responses({ 200: ListEnvelope(Workflow, 'WorkflowList') }),
      },
    },
    async (request) => {
      const q = request.query;
      const page = workflows.start(request, q, { status: q.status, project_id: q.project_id });
      const rows = await listWorkflows(deps.db, page.accountId, { status: q.status, projectId: q.project_id }, page);
      return workflows.page(page, rows, renderWorkflow);
    },
  );

  app.get(
    '/workflows/:id',
    {
      config: meta({ scope: 'workflows:read', write: false }),
      schema: {
        operationId: 'getWorkflow',
        summary: 'Get a workflow',
        tags: ['Workflows'],
        params: IdParams,
        response: v1Responses({ 200: Workflow }),
      },
    },
    async (request) => {
      return renderWorkflow(found(await getWorkflow(deps.db, authOf(request).accountId, request.params.id), 'workflow'));
    },
  );
}
