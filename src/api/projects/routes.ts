// Projects, read side: GET /projects and GET /projects/{id}. The route file is the contract.
// A project is shown as {id, name, description, created_at, updated_at}; its settings and its
// work-management fields are not part of the content API.
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/app.js';
import { notFound } from '../../http/errors.js';
import { pageRequest, toPage } from '../../http/pagination.js';
import { meta, v1Responses } from '../../http/route.js';
import { DateTime, ListEnvelope, ListQuery, Uuid } from '../../http/schemas.js';
import { iso } from '../../lib/time.js';
import { getProject, listProjects, type ProjectRow } from './store.js';

export const Project = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String({ description: 'May be an empty string.' }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  {
    title: 'Project',
    examples: [
      {
        id: '01968f3e-7b1a-7c3e-9d2f-2a4b6c8d0e1f',
        name: 'Website',
        description: 'Marketing site',
        created_at: '2026-03-01T12:00:00.000Z',
        updated_at: '2026-03-02T09:30:00.000Z',
      },
    ],
  },
);
type ProjectOut = Static<typeof Project>;

const ListProjectsQuery = Type.Object({ ...ListQuery }, { additionalProperties: false });
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export function renderProject(r: ProjectRow): ProjectOut {
  return { id: r.id, name: r.name, description: r.description, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

export function registerProjectRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/projects',
    {
      config: meta({ scope: 'content:read', write: false }),
      schema: {
        operationId: 'listProjects',
        summary: 'List projects',
        description: 'Every project in the account, newest first (created_at, then id).',
        tags: ['Content'],
        querystring: ListProjectsQuery,
        response: v1Responses({ 200: ListEnvelope(Project, 'ProjectList') }),
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ListProjectsQuery>;
      const page = pageRequest(deps.cursors, request, q, {});
      const after = page.after ? { createdAt: new Date(String(page.after[0])), id: String(page.after[1]) } : null;
      const rows = await listProjects(deps.db, request.auth!.accountId, after, page.limit + 1);
      return toPage(deps.cursors, page, rows, (r) => [iso(r.created_at), r.id], renderProject);
    },
  );

  app.get(
    '/projects/:id',
    {
      config: meta({ scope: 'content:read', write: false }),
      schema: {
        operationId: 'getProject',
        summary: 'Get a project',
        tags: ['Content'],
        params: IdParams,
        response: v1Responses({ 200: Project }),
      },
    },
    async (request) => {
      const { id } = request.params as Static<typeof IdParams>;
      const row = await getProject(deps.db, request.auth!.accountId, id);
      if (!row) throw notFound('project');
      return renderProject(row);
    },
  );
}
