// Automations, read side: GET /automations and GET /automations/{id}. The API never changes an
// automation (spec rule 6); the operator commands in src/cli/automations.ts do. The route file is
// the contract.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/app.js';
import { notFound } from '../../http/errors.js';
import { pageRequest, toPage } from '../../http/pagination.js';
import { meta, v1Responses } from '../../http/route.js';
import { ListEnvelope, ListQuery, Uuid } from '../../http/schemas.js';
import { iso } from '../../lib/time.js';
import { getAutomation, listAutomations } from './store.js';
import { Automation, AutomationStatus, renderAutomation } from './summary.js';

const ListAutomationsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(AutomationStatus),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export function registerAutomationRoutes(app: FastifyInstance, deps: AppDeps): void {
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
      const q = request.query as Static<typeof ListAutomationsQuery>;
      const page = pageRequest(deps.cursors, request, q, { status: q.status, project_id: q.project_id });
      const after = page.after ? { updatedAt: new Date(String(page.after[0])), id: String(page.after[1]) } : null;
      const rows = await listAutomations(
        deps.db,
        request.auth!.accountId,
        { status: q.status, projectId: q.project_id },
        after,
        page.limit + 1,
      );
      return toPage(deps.cursors, page, rows, (r) => [iso(r.updated_at), r.id], renderAutomation);
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
      const { id } = request.params as Static<typeof IdParams>;
      const row = await getAutomation(deps.db, request.auth!.accountId, id);
      if (!row) throw notFound('automation');
      return renderAutomation(row);
    },
  );
}
