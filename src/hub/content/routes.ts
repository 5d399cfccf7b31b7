// Content in the hub: projects and their items (the /v1 reads and shapes, on the session's
// account), creating a project (a new account starts with none, and the builders need one),
// creating a page from Markdown or HTML (the same service and sanitiser as POST
// /v1/projects/{id}/items, with a page.created audit entry), and a preview of the sanitised HTML
// that saves nothing. The page shows a page's HTML only in a sandboxed iframe.
import { found } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import { listByTime, searchText } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { PAGE_HTML_POLICY, pageBytes } from '../../lib/page.js';
import { createProject } from '../../services/projects/service.js';
import { createPage, convertPage, pageSource } from '../../services/pages/service.js';
import { renderItem, renderItemSummary } from '../../api/items/render.js';
import { CreatePageBody, Item } from '../../api/items/schemas.js';
import { getItem, listItems, type ItemRow } from '../../services/items/read-store.js';
import { renderProject } from '../../api/projects/render.js';
import { Project } from '../../api/projects/schemas.js';
import { getProject, listProjects, type ProjectRow } from '../../services/projects/read-store.js';
import { actorOf, hubAuthOf, hubList, hubRoute } from '../kit.js';
import { CreateProjectBody, HubListItemsQuery, HubListProjectsQuery, IdParams, Preview, PreviewBody, ProjectItems } from './schemas.js';

export function registerHubContentRoutes(hub: App, deps: AppDeps): void {
  const items = listByTime(deps.cursors, (r: ItemRow) => r.updated_at);

  hubList(hub, '/projects', 'member', {
    operationId: 'hubListProjects',
    summary: 'Content projects',
    description: 'Every project of the account, newest first.',
    querystring: HubListProjectsQuery,
    item: Project,
    title: 'HubProjectList',
    lister: listByTime(deps.cursors, (r: ProjectRow) => r.created_at),
    filters: (q) => ({ q: searchText(q.q) }),
    read: (page, q) => listProjects(deps.db, page.accountId, page, searchText(q.q)),
    render: renderProject,
  });

  hub.post('/projects', hubRoute('member', {
    operationId: 'hubCreateProject',
    summary: 'Create a project',
    description:
      'A new project in the account, with the default settings (SMS consent required, 5 automations per contact). ' +
      'Audited as project.created.',
    body: CreateProjectBody,
    response: { 201: Project },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const row = await createProject(deps.db, auth.accountId, request.body, actorOf(auth));
    return reply.code(201).send(renderProject(row));
  });

  hub.get('/projects/:id/items', hubRoute('member', {
    operationId: 'hubListProjectItems',
    summary: "A project's items",
    description:
      "Most recently updated first, paged as in /v1 (a page's text and html are in the item only), with the project " +
      'itself: the screen needs one request.',
    params: IdParams,
    querystring: HubListItemsQuery,
    response: { 200: ProjectItems },
  }), async (request) => {
    const projectId = request.params.id;
    const { kind, updated_since } = request.query;
    const search = searchText(request.query.q);
    const page = items.start(request, request.query, { project: projectId.toLowerCase(), kind, updated_since, q: search }, hubAuthOf(request).accountId);
    const project = found(await getProject(deps.db, page.accountId, projectId), 'project');
    const since = updated_since === undefined ? undefined : new Date(updated_since);
    const rows = await listItems(deps.db, page.accountId, projectId, { kind, updatedSince: since, search }, page);
    return { project: renderProject(project), ...items.page(page, rows, renderItemSummary) };
  });

  hub.get('/items/:id', hubRoute('member', {
    operationId: 'hubGetItem',
    summary: 'A content item',
    description: "Any item with its kind's fields; a page also has its text and sanitised html (shown only in a sandboxed iframe).",
    params: IdParams,
    response: { 200: Item },
  }), async (request) => {
    return renderItem(found(await getItem(deps.db, hubAuthOf(request).accountId, request.params.id), 'item'));
  });

  hub.post('/projects/:id/pages', hubRoute('member', {
    operationId: 'hubCreatePage',
    summary: 'Create a page',
    description:
      'A page from {title, markdown} or {title, html}, exactly one of the two, with the same rules and limits as ' +
      'POST /v1/projects/{id}/items (413 page_too_large, 429 rate_limited while the account\'s conversions wait). ' +
      'Audited as page.created.\n\n' +
      PAGE_HTML_POLICY,
    params: IdParams,
    body: CreatePageBody,
    response: { 201: Item },
  }, [413, 429]), async (request, reply) => {
    const auth = hubAuthOf(request);
    const row = await createPage(deps.db, deps.pages, { accountId: auth.accountId, projectId: request.params.id, body: request.body, actor: actorOf(auth) });
    return reply.code(201).send(renderItem(row));
  });

  hub.post('/pages/preview', hubRoute('member', {
    operationId: 'hubPreviewPage',
    summary: 'Preview a page',
    description: 'The sanitised HTML a page from this Markdown or HTML would have, through the same converter; nothing is saved.',
    body: PreviewBody,
    response: { 200: Preview },
  }, [413, 429]), async (request) => {
    const auth = hubAuthOf(request);
    const { source, field } = pageSource(request.body);
    const page = await convertPage(deps.pages, auth.accountId, source, field);
    return { html: page.html, bytes: pageBytes(page) };
  });
}
