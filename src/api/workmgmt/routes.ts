// Work management, read-only: GET /workmgmt/projects, …/{project_id}/items, …/items/{key} and
// …/{project_id}/sprints. The route file is the contract. Nothing here writes: a project that
// never opened the area is 404 and stays without it (spec rule 9).
import type { AppDeps } from '../../http/deps.js';
import { listByNumber, listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { projectOr404, workItemDetail, workItemsPage } from './read.js';
import { renderProject, renderSprint } from './render.js';
import { ItemParams, ListItemsQuery, ListOnlyQuery, ProjectParams, Sprint, WorkItem, WorkItemDetail, WorkProject } from './schemas.js';
import { listSprints, listWmProjects, type SprintRow, type WmItemRow, type WmProjectRow } from '../../services/workmgmt/read-store.js';

const TAGS = ['Work management'];
const READ = meta({ scope: 'workmgmt:read', write: false });

export function registerWorkmgmtRoutes(app: App, deps: AppDeps): void {
  const projects = listByTime(deps.cursors, (r: WmProjectRow) => r.created_at);
  const items = listByNumber(deps.cursors, (r: WmItemRow) => r.number);
  const sprints = listByTime(deps.cursors, (r: SprintRow) => r.created_at);
  app.get(
    '/workmgmt/projects',
    {
      config: READ,
      schema: {
        operationId: 'listWorkProjects',
        summary: 'List work-management projects',
        description: 'Projects that have opened work management, with their key prefixes; newest project first.',
        tags: TAGS,
        querystring: ListOnlyQuery,
        response: v1Responses({ 200: ListEnvelope(WorkProject, 'WorkProjectList') }),
      },
    },
    async (request) => {
      const page = projects.start(request, request.query, {});
      const rows = await listWmProjects(deps.db, page.accountId, page);
      return projects.page(page, rows, renderProject);
    },
  );

  app.get(
    '/workmgmt/projects/:project_id/items',
    {
      config: READ,
      schema: {
        operationId: 'listWorkItems',
        summary: 'List work items',
        description:
          'A project\'s items in key order (number ascending). Filters combine; a well-formed sprint, assignee or epic that names nothing gives an empty list.',
        tags: TAGS,
        params: ProjectParams,
        querystring: ListItemsQuery,
        response: v1Responses({ 200: ListEnvelope(WorkItem, 'WorkItemList') }),
      },
    },
    async (request) => {
      const q = request.query;
      const { limit: _l, cursor: _c, ...filters } = q;
      const page = items.start(request, q, { project_id: request.params.project_id, ...filters });
      const project = await projectOr404(deps, page.accountId, request.params.project_id);
      return workItemsPage(deps, items, page, project, q);
    },
  );

  app.get(
    '/workmgmt/projects/:project_id/items/:key',
    {
      config: READ,
      schema: {
        operationId: 'getWorkItem',
        summary: 'Get a work item',
        description:
          'The item named by its key, with description, linked documents and the whole history including comments. ' +
          'The answer always carries the current key.',
        tags: TAGS,
        params: ItemParams,
        response: v1Responses({ 200: WorkItemDetail }),
      },
    },
    async (request) => workItemDetail(deps, authOf(request).accountId, request.params.project_id, request.params.key),
  );

  app.get(
    '/workmgmt/projects/:project_id/sprints',
    {
      config: READ,
      schema: {
        operationId: 'listSprints',
        summary: 'List sprints',
        description: 'A project\'s sprints, newest first, with totals and, once finished, their review.',
        tags: TAGS,
        params: ProjectParams,
        querystring: ListOnlyQuery,
        response: v1Responses({ 200: ListEnvelope(Sprint, 'SprintList') }),
      },
    },
    async (request) => {
      const { project_id } = request.params;
      const page = sprints.start(request, request.query, { project_id });
      const project = await projectOr404(deps, page.accountId, project_id);
      const rows = await listSprints(deps.db, page.accountId, project.id, page);
      return sprints.page(page, rows, renderSprint);
    },
  );
}
