// Work management, read-only: GET /workmgmt/projects, …/{project_id}/items, …/items/{key} and
// …/{project_id}/sprints. The route file is the contract. Nothing here writes: a project that
// never opened the area is 404 and stays without it (spec rule 9).
import { Type, type Static } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../domain/errors.js';
import { listByNumber, listByTime, type Lister, type ListRequest } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { WM_STATUSES, WM_TYPES } from '../../domain/work-item.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope, ListQuery, StringEnum, Uuid } from '../../http/schemas.js';
import {
  KEY_PATTERN,
  Sprint,
  WorkItem,
  WorkItemDetail,
  WorkProject,
  ownsPrefix,
  parseKey,
  renderItem,
  renderItemDetail,
  renderProject,
  renderSprint,
} from './schemas.js';
import {
  getHistory,
  getLinkedDocuments,
  getWmItem,
  getWmProject,
  listSprints,
  listWmItems,
  listWmProjects,
  type SprintRow,
  type WmItemFilters,
  type WmItemRow,
  type WmProjectRow,
} from './store.js';

const TAGS = ['Work management'];
const READ = meta({ scope: 'workmgmt:read', write: false });

export const ProjectParams = Type.Object({ project_id: Uuid }, { additionalProperties: false });
export const ItemParams = Type.Object(
  {
    project_id: Uuid,
    key: Type.String({ pattern: KEY_PATTERN, description: '`<PREFIX>-<number>`; a previous prefix of the project also finds the item.', examples: ['WEB-12'] }),
  },
  { additionalProperties: false },
);
export const ListOnlyQuery = Type.Object(ListQuery, { additionalProperties: false });
export const ListItemsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(StringEnum(WM_STATUSES)),
    type: Type.Optional(StringEnum(WM_TYPES)),
    sprint_id: Type.Optional(Uuid),
    assignee: Type.Optional(
      Type.Union([Uuid, Type.Literal('none')], { description: "A user id, or `none` for items nobody is assigned to." }),
    ),
    epic: Type.Optional(
      Type.String({
        pattern: KEY_PATTERN,
        description: "An epic's key, with the current or a previous prefix: the items in that epic.",
        examples: ['WEB-4'],
      }),
    ),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Items carrying this label (exact).' })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        // At least one word: a q of blanks only would filter nothing (and is refused like an empty one).
        pattern: '\\S',
        description: 'Words that must all appear in the title or description (any case).',
      }),
    ),
    changed_since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Items changed at or after this moment (ISO 8601 with a zone).' }),
    ),
  },
  { additionalProperties: false },
);
type ItemsQuery = Static<typeof ListItemsQuery>;

/** The project named in the path, if it opened the area; else 404 like an unknown id. */
export async function projectOr404(deps: AppDeps, accountId: string, projectId: string): Promise<WmProjectRow> {
  const project = await getWmProject(deps.db, accountId, projectId);
  if (!project) throw notFound('project with work management');
  return project;
}

/**
 * The filters as SQL takes them, checked before any lookup (a bad value is 400 even on an unknown
 * project, as the schema's own checks are). The epic is resolved later, against the project.
 */
export function itemFilters(q: ItemsQuery): WmItemFilters {
  const changedSince = q.changed_since === undefined ? undefined : new Date(q.changed_since);
  return {
    status: q.status,
    type: q.type,
    sprintId: q.sprint_id,
    assignee: q.assignee,
    label: q.label,
    // Case is folded in SQL, on both sides alike (JavaScript and PostgreSQL lower-case some letters differently).
    words: q.q?.split(/\s+/).filter(Boolean),
    changedSince,
  };
}

/** The epic's number in this project, or null when the key names no epic here (any of its prefixes). */
export function epicNumber(epicKey: string, project: WmProjectRow): number | null {
  const epic = parseKey(epicKey);
  return epic && ownsPrefix(project, epic.prefix) ? epic.number : null;
}

/** A page of a project's items with the query's filters: the one reading /v1 and the hub share. */
export async function workItemsPage(deps: AppDeps, items: Lister<WmItemRow>, page: ListRequest, project: WmProjectRow, q: ItemsQuery) {
  const f = itemFilters(q);
  const epic = q.epic === undefined ? undefined : epicNumber(q.epic, project);
  // An epic key that names nothing here matches no item: answer the empty page without a query.
  const rows = epic === null ? [] : await listWmItems(deps.db, page.accountId, project.id, { ...f, epicNumber: epic }, page);
  return items.page(page, rows, (r) => renderItem(project.wm_prefix, r));
}

/** One item by its key (any of the project's prefixes) with its linked documents and history. */
export async function workItemDetail(deps: AppDeps, accountId: string, projectId: string, key: string): Promise<Static<typeof WorkItemDetail>> {
  const project = await projectOr404(deps, accountId, projectId);
  const parsed = parseKey(key);
  if (!parsed || !ownsPrefix(project, parsed.prefix)) throw notFound('work item');
  const item = await getWmItem(deps.db, accountId, project.id, parsed.number);
  if (!item) throw notFound('work item');
  const [docs, history] = await Promise.all([getLinkedDocuments(deps.db, accountId, item.linked_documents), getHistory(deps.db, accountId, item.id)]);
  return renderItemDetail(project.wm_prefix, item, docs, history);
}

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
