// Creating, editing and deleting work items (docs/architecture.md §12.10): the hub's routes call
// these; the engine's task.create writes through the same insert (engine/work-item-store.ts).
// An edit names the version it started from (expected_updated_at) and is refused when the item
// changed since, never merged over it; every field it changes gets its own history row.
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, found, notFound } from '../../domain/errors.js';
import { ownsPrefix, parseKey } from '../../domain/work-item.js';
import { insertWorkItem } from '../../engine/work-item-store.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { changesBetween, checkedColumns, checkWhole, newColumns, type ItemInput } from './fields.js';
import { epicHasChildren, getWmItem, getWmProject, type WmItemDetailRow, type WmProjectRow } from './read-store.js';
import { deleteItem, detachFromEpic, insertChanges, updateItem, type ItemColumns } from './write-store.js';

/** These transactions only run statements: a deadlock or serialization failure may run them again. */
export const REPLAYABLE = { replayable: true } as const;

/** The hub user's id in history rows (the operator has none). */
export const actorId = (a: Actor) => (a.kind === 'user' ? a.id : null);

/** The project (it must have opened the area) and its live item by key, the item's row locked. */
export async function lockedItem(tx: Queryable, accountId: string, projectId: string, key: string): Promise<{ project: WmProjectRow; item: WmItemDetailRow }> {
  const project = found(await getWmProject(tx, accountId, projectId), 'project with work management');
  const parsed = parseKey(key);
  if (!parsed || !ownsPrefix(project, parsed.prefix)) throw notFound('work item');
  const item = found(await getWmItem(tx, accountId, project.id, parsed.number, true), 'work item');
  return { project, item };
}

function columnsOf(i: WmItemDetailRow): ItemColumns {
  return {
    type: i.type, title: i.title, description: i.description, status: i.status, sprint_id: i.sprint_id, epic_number: i.epic_number,
    labels: i.labels, assignee: i.assignee, start_date: i.start_date, due_date: i.due_date, points: i.points, linked_documents: i.linked_documents,
  };
}

/** A new item with the project's next number; its key, with the project's current prefix. */
export async function createWorkItem(db: Db, accountId: string, projectId: string, input: ItemInput & Pick<Required<ItemInput>, 'type' | 'title'>): Promise<string> {
  return db.transaction(
    async (tx) => {
      const project = found(await getWmProject(tx, accountId, projectId), 'project with work management');
      const c = newColumns(await checkedColumns(tx, accountId, project, input));
      checkWhole(c, false);
      const created = found(
        await insertWorkItem(tx, {
          accountId, projectId, type: c.type, title: c.title, description: c.description, status: c.status, sprintId: c.sprint_id,
          epicNumber: c.epic_number, labels: c.labels, assignee: c.assignee, startDate: c.start_date, dueDate: c.due_date,
          points: c.points, linkedDocuments: c.linked_documents,
        }),
        'project with work management',
      );
      return `${created.prefix}-${created.number}`;
    },
    REPLAYABLE,
  );
}

/**
 * Changes the fields sent, when the item is still at `expectedUpdatedAt`: otherwise 409
 * work_item_changed (the client reloads and decides), nothing written. An edit that changes
 * nothing writes nothing, not even updated_at. Returns the item's key (current prefix).
 */
export async function editWorkItem(db: Db, accountId: string, projectId: string, key: string, input: ItemInput, expectedUpdatedAt: string, actor: Actor): Promise<string> {
  return db.transaction(async (tx) => {
    const { project, item } = await lockedItem(tx, accountId, projectId, key);
    if (item.updated_at.getTime() !== Date.parse(expectedUpdatedAt)) {
      throw new ApiError(
        'work_item_changed',
        `${project.wm_prefix}-${item.number} was changed at ${item.updated_at.toISOString()}, after the version you edited (${expectedUpdatedAt}): reload it.`,
        { param: 'expected_updated_at' },
      );
    }
    const before = columnsOf(item);
    const after = { ...before, ...(await checkedColumns(tx, accountId, project, input)) };
    const leavesEpic = before.type === 'epic' && after.type !== 'epic';
    checkWhole(after, leavesEpic && (await epicHasChildren(tx, accountId, project.id, item.number)));
    const changes = changesBetween(before, after, project.wm_prefix);
    if (changes.length > 0) {
      await updateItem(tx, accountId, item.id, after);
      await insertChanges(tx, accountId, item.id, actorId(actor), changes);
    }
    return `${project.wm_prefix}-${item.number}`;
  }, REPLAYABLE);
}

/**
 * Soft delete (owners and admins): the item and its history stay in the store, every read answers
 * 404, and its number is never given again. A deleted epic's items leave it, each with a history
 * row. Audited as work_item.deleted.
 */
export async function deleteWorkItem(db: Db, accountId: string, projectId: string, key: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const { project, item } = await lockedItem(tx, accountId, projectId, key);
    const itemKey = `${project.wm_prefix}-${item.number}`;
    await deleteItem(tx, accountId, item.id);
    const detached = item.type === 'epic' ? await detachFromEpic(tx, accountId, project.id, item.number, itemKey, actorId(actor)) : 0;
    await recordAudit(tx, {
      accountId,
      actor,
      action: 'work_item.deleted',
      objectKind: 'work_item',
      objectId: item.id,
      detail: { project: project.name, key: itemKey, title: item.title, ...(detached > 0 ? { items_left_epic: detached } : {}) },
    });
  }, REPLAYABLE);
}
