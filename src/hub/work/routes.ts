// Work management in the hub, its reads: the projects that opened it, a project's items with /v1's
// filters (and the project itself), an item by key with its history, and its sprints with totals. Every read is
// /v1's (api/workmgmt), on the session's account; a project without the area is 404, as in /v1.
// The writes are in write-routes.ts.
import type { AppDeps } from '../../http/deps.js';
import { listByNumber, listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { NoQuery } from '../../http/schemas.js';
import { projectOr404, workItemsPage } from '../../api/workmgmt/read.js';
import { renderProject } from '../../api/workmgmt/render.js';
import { ItemParams, ListOnlyQuery, ProjectParams, WorkProject } from '../../api/workmgmt/schemas.js';
import { listSprints, listWmProjects, type SprintRow, type WmItemRow, type WmProjectRow } from '../../services/workmgmt/read-store.js';
import { hubAuthOf, hubList, hubRoute } from '../kit.js';
import { hubWorkItem } from './render.js';
import { HubListItemsQuery, HubWorkItem, ProjectItems } from './schemas.js';
import { HubSprint } from './sprint-schemas.js';
import { hubSprint, registerHubSprintRoutes } from './sprint-routes.js';
import { registerHubWorkWriteRoutes } from './write-routes.js';

export function registerHubWorkRoutes(hub: App, deps: AppDeps): void {
  const items = listByNumber(deps.cursors, (r: WmItemRow) => r.number);

  hubList(hub, '/workmgmt/projects', 'member', {
    operationId: 'hubListWorkProjects',
    summary: 'Work-management projects',
    description: 'Projects that opened work management, newest first.',
    querystring: ListOnlyQuery,
    item: WorkProject,
    title: 'HubWorkProjectList',
    lister: listByTime(deps.cursors, (r: WmProjectRow) => r.created_at),
    filters: () => ({}),
    read: (page) => listWmProjects(deps.db, page.accountId, page),
    render: renderProject,
  });

  hub.get('/workmgmt/projects/:project_id/items', hubRoute('member', {
    operationId: 'hubListWorkItems',
    summary: 'Work items',
    description:
      "A project's items in key order (order=rank: the backlog's order), with /v1's filters (status, type, sprint, assignee, epic, " +
      'label, words, changed since), and the project itself.',
    params: ProjectParams,
    querystring: HubListItemsQuery,
    response: { 200: ProjectItems },
  }), async (request) => {
    const { order, ...q } = request.query;
    const { limit: _l, cursor: _c, ...filters } = q;
    const page = items.start(request, q, { project_id: request.params.project_id, ...filters, order }, hubAuthOf(request).accountId);
    const project = await projectOr404(deps, page.accountId, request.params.project_id);
    return { project: renderProject(project), ...(await workItemsPage(deps, items, page, project, q, order)) };
  });

  hub.get('/workmgmt/projects/:project_id/items/:key', hubRoute('member', {
    operationId: 'hubGetWorkItem',
    summary: 'A work item',
    description:
      'The item by its key (a previous prefix finds it too), with linked documents and its whole history; each entry carries its seq ' +
      '(a comment is edited by it). A deleted item is 404.',
    params: ItemParams,
    querystring: NoQuery,
    response: { 200: HubWorkItem },
  }), async (request) => hubWorkItem(deps, hubAuthOf(request).accountId, request.params.project_id, request.params.key));

  hubList(hub, '/workmgmt/projects/:project_id/sprints', 'member', {
    operationId: 'hubListSprints',
    summary: 'Sprints',
    description: "A project's sprints, newest first, with their goals, their totals (items, done, points) and, once finished, their review.",
    params: ProjectParams,
    querystring: ListOnlyQuery,
    item: HubSprint,
    title: 'HubSprintList',
    lister: listByTime(deps.cursors, (r: SprintRow) => r.created_at),
    filters: (_q, { project_id }) => ({ project_id }),
    read: async (page, _q, { project_id }) => {
      const project = await projectOr404(deps, page.accountId, project_id);
      return listSprints(deps.db, page.accountId, project.id, page);
    },
    render: hubSprint,
  });

  registerHubWorkWriteRoutes(hub, deps);
  registerHubSprintRoutes(hub, deps);
}
