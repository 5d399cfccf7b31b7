// Work management's reads that /v1 and the hub share: the project a path names, a page of a
// project's items with the list's filters, and one item with its documents and history.
import type { AppDeps } from '../../http/deps.js';
import { found, notFound } from '../../domain/errors.js';
import type { Lister, ListRequest } from '../../http/list.js';
import { ownsPrefix, parseKey } from '../../domain/work-item.js';
import { renderItem, renderItemDetail } from './render.js';
import type { ListItemsQuery, WorkItemDetail } from './schemas.js';
import { getHistory, getLinkedDocuments, getWmItem, getWmProject, listWmItems, type WmItemFilters, type WmItemRow, type WmProjectRow } from '../../services/workmgmt/read-store.js';

/** The project named in the path, if it opened the area; else 404 like an unknown id. */
export async function projectOr404(deps: AppDeps, accountId: string, projectId: string): Promise<WmProjectRow> {
  return found(await getWmProject(deps.db, accountId, projectId), 'project with work management');
}

/**
 * The filters as SQL takes them, checked before any lookup (a bad value is 400 even on an unknown
 * project, as the schema's own checks are). The epic is resolved later, against the project.
 */
export function itemFilters(q: ListItemsQuery): WmItemFilters {
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

/** A page of a project's items with the query's filters: the one reading /v1 and the hub share (order: the hub's; /v1 lists by key). */
export async function workItemsPage(deps: AppDeps, items: Lister<WmItemRow>, page: ListRequest, project: WmProjectRow, q: ListItemsQuery, order?: 'key' | 'rank') {
  const f = { ...itemFilters(q), order };
  const epic = q.epic === undefined ? undefined : epicNumber(q.epic, project);
  // An epic key that names nothing here matches no item: answer the empty page without a query.
  const rows = epic === null ? [] : await listWmItems(deps.db, page.accountId, project.id, { ...f, epicNumber: epic }, page);
  return items.page(page, rows, (r) => renderItem(project.wm_prefix, r));
}

/** One item by its key (any of the project's prefixes), its project, linked documents and history. */
export async function loadItemDetail(deps: AppDeps, accountId: string, projectId: string, key: string) {
  const project = await projectOr404(deps, accountId, projectId);
  const parsed = parseKey(key);
  if (!parsed || !ownsPrefix(project, parsed.prefix)) throw notFound('work item');
  const item = found(await getWmItem(deps.db, accountId, project.id, parsed.number), 'work item');
  const [docs, history] = await Promise.all([getLinkedDocuments(deps.db, accountId, item.linked_documents), getHistory(deps.db, accountId, item.id)]);
  return { project, item, docs, history };
}

/** One item by its key (any of the project's prefixes) with its linked documents and history. */
export async function workItemDetail(deps: AppDeps, accountId: string, projectId: string, key: string): Promise<WorkItemDetail> {
  const { project, item, docs, history } = await loadItemDetail(deps, accountId, projectId, key);
  return renderItemDetail(project.wm_prefix, item, docs, history);
}
