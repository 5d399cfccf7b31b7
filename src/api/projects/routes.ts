// Projects, read side: GET /projects and GET /projects/{id}. The route file is the contract.
// A project is shown as {id, name, description, created_at, updated_at}; its settings and its
// work-management fields are not part of the content API.
import { Type, type Static } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
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

export const ListProjectsQuery = Type.Object({ ...ListQuery }, { additionalProperties: false });
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export function renderProject(r: ProjectRow): ProjectOut {
  return { id: r.id, name: r.name, description: r.description, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

export function registerProjectRoutes(app: App, deps: AppDeps): void {
  const projects = listByTime(deps.cursors, (r: ProjectRow) => r.created_at);
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
      const page = projects.start(request, request.query, {});
      const rows = await listProjects(deps.db, page.accountId, page);
      return projects.page(page, rows, renderProject);
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
      const row = await getProject(deps.db, authOf(request).accountId, request.params.id);
      if (!row) throw notFound('project');
      return renderProject(row);
    },
  );
}
