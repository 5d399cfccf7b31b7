// Workflows, read side: GET /workflows and GET /workflows/{id}. The route file is the contract.
import { Type, type Static } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { DateTime, ListEnvelope, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { WORKFLOW_STATUSES } from '../../domain/workflow.js';
import { iso } from '../../lib/time.js';
import { getWorkflow, listWorkflows, type WorkflowRow } from './store.js';

const WorkflowStatus = StringEnum(WORKFLOW_STATUSES);

export const Workflow = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String({ description: 'May be an empty string.' }),
    status: WorkflowStatus,
    project_id: Nullable(Uuid),
    updated_at: DateTime,
    last_run: Nullable(
      Type.Object({ id: Uuid, status: Type.String(), at: DateTime }, { description: 'The most recently created run.' }),
    ),
  },
  { title: 'Workflow' },
);
type WorkflowOut = Static<typeof Workflow>;

const ListWorkflowsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(WorkflowStatus),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export function renderWorkflow(r: WorkflowRow): WorkflowOut {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    status: r.status,
    project_id: r.project_id,
    updated_at: iso(r.updated_at),
    last_run: r.run_id ? { id: r.run_id, status: r.run_status!, at: iso(r.run_at!) } : null,
  };
}

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
      const row = await getWorkflow(deps.db, authOf(request).accountId, request.params.id);
      if (!row) throw notFound('workflow');
      return renderWorkflow(row);
    },
  );
}
