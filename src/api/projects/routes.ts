// Projects, read side: GET /projects and GET /projects/{id}. The route file is the contract.
// A project is shown as {id, name, description, created_at, updated_at}; its settings and its
// work-management fields are not part of the content API.
import type { AppDeps } from '../../http/deps.js';
import { found } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { renderProject } from './render.js';
import { IdParams, ListProjectsQuery, Project } from './schemas.js';
import { getProject, listProjects, type ProjectRow } from '../../services/projects/read-store.js';

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
      return renderProject(found(await getProject(deps.db, authOf(request).accountId, request.params.id), 'project'));
    },
  );
}
