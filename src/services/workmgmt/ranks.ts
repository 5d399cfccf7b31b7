// Moving an item in the backlog (issue 27): before or after another item of the project, and into
// a sprint or the backlog in the same call. A move writes one rank (src/lib/rank.ts: a key between
// the two neighbours, nothing renumbered) under the project's row lock, which creates take too:
// two moves into one gap take turns, and the second reads the first's rank as its neighbour, so
// no two items share a rank (the unique index wm_items_project_rank would refuse it anyway).
// A rank is the item's place, not one of its fields: it moves neither updated_at nor the history;
// a change of sprint does both, as an edit of the field would.
import type { Db, Queryable } from '../../db/db.js';
import { found } from '../../domain/errors.js';
import { ownsPrefix, parseKey } from '../../domain/work-item.js';
import { rankBetween } from '../../lib/rank.js';
import type { Actor } from '../audit/service.js';
import { checkedColumns, refuse } from './fields.js';
import { actorId, lockedItem, REPLAYABLE } from './items.js';
import { getWmItem, getWmProject, rankNeighbour, type WmItemDetailRow, type WmProjectRow } from './read-store.js';
import { moveItemsToSprint, setRank } from './write-store.js';

/** Where the item goes: next to one other item (at most one of before and after), and/or a sprint (null: the backlog). */
export interface MoveInput {
  before?: string;
  after?: string;
  sprint_id?: string | null;
}

/** The other item named by key, live and of this project; refused naming `param` otherwise. */
async function anchorItem(tx: Queryable, accountId: string, project: WmProjectRow, key: string, param: string, moving: WmItemDetailRow): Promise<WmItemDetailRow> {
  const parsed = parseKey(key);
  const anchor = parsed && ownsPrefix(project, parsed.prefix) ? await getWmItem(tx, accountId, project.id, parsed.number) : null;
  if (!anchor) throw refuse(param, `The field ${param} names no item of this project (${key}).`);
  if (anchor.id === moving.id) throw refuse(param, `An item cannot move ${param} itself.`);
  return anchor;
}

/** The rank that places the item right before or after the anchor; its own rank when neither is sent. */
async function newRank(tx: Queryable, accountId: string, project: WmProjectRow, item: WmItemDetailRow, input: MoveInput): Promise<string> {
  if (input.before !== undefined && input.after !== undefined) throw refuse('after', 'Send before or after, not both.');
  if (input.before !== undefined) {
    const anchor = await anchorItem(tx, accountId, project, input.before, 'before', item);
    return rankBetween(await rankNeighbour(tx, accountId, project.id, anchor.rank, 'below', item.id), anchor.rank);
  }
  if (input.after !== undefined) {
    const anchor = await anchorItem(tx, accountId, project, input.after, 'after', item);
    return rankBetween(anchor.rank, await rankNeighbour(tx, accountId, project.id, anchor.rank, 'above', item.id));
  }
  return item.rank;
}

/** Moves the item by key; answers its key with the project's current prefix. */
export async function moveWorkItem(db: Db, accountId: string, projectId: string, key: string, input: MoveInput, actor: Actor): Promise<string> {
  return db.transaction(async (tx) => {
    found(await getWmProject(tx, accountId, projectId, true), 'project with work management');
    const { project, item } = await lockedItem(tx, accountId, projectId, key);
    const rank = await newRank(tx, accountId, project, item, input);
    if (rank !== item.rank) await setRank(tx, accountId, item.id, rank);
    if (input.sprint_id !== undefined) {
      const { sprint_id: to = null } = await checkedColumns(tx, accountId, project, { sprint_id: input.sprint_id });
      if (to !== item.sprint_id) await moveItemsToSprint(tx, accountId, [item.id], item.sprint_id, to, actorId(actor));
    }
    return `${project.wm_prefix}-${item.number}`;
  }, REPLAYABLE);
}
