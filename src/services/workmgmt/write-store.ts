// Work management's writes after an item exists: opening the area and renaming its prefix, an
// item's fields, its history (changes and comments) and its soft delete. Reads stay in
// read-store.ts; an item's creation is ../../engine/work-item-store.ts (shared with task.create).
// Every statement filters by account_id; the callers hold the item's row lock (read-store's
// getWmItem with lock) before writing history, so seqs are taken in turn.
import type { Queryable } from '../../db/db.js';
import type { WmItemDetailRow } from './read-store.js';

// Every change moves updated_at strictly forward, even within one clock tick (PGlite's clock is
// coarse): an editor's expected_updated_at then never matches a version it has not seen.
const TOUCH = `updated_at = greatest(now(), updated_at + interval '1 millisecond')`;

/** Opens the area with its first prefix; false when the project is unknown or already opened it. */
export async function openArea(tx: Queryable, accountId: string, projectId: string, prefix: string): Promise<boolean> {
  const rows = await tx.query(
    `update projects set wm_prefix = $3, wm_opened_at = now()
      where account_id = $1 and id = $2 and wm_prefix is null
      returning 1`,
    [accountId, projectId, prefix],
  );
  return rows.length > 0;
}

/**
 * The new prefix; the old one joins the previous ones (so its keys still find the items), and a
 * previous prefix taken up again leaves that list (the current prefix is never also a previous one).
 */
export async function setPrefix(tx: Queryable, accountId: string, projectId: string, from: string, to: string): Promise<void> {
  await tx.query(
    `update projects
        set wm_prefix = $4, wm_previous_prefixes = array_append(array_remove(wm_previous_prefixes, $4), $3)
      where account_id = $1 and id = $2`,
    [accountId, projectId, from, to],
  );
}

/** An item's editable columns as the service hands them over (dates as YYYY-MM-DD), as read-store reads them. */
export type ItemColumns = Pick<
  WmItemDetailRow,
  'type' | 'title' | 'description' | 'status' | 'sprint_id' | 'epic_number' | 'labels' | 'assignee' | 'start_date' | 'due_date' | 'points' | 'linked_documents'
>;

export async function updateItem(tx: Queryable, accountId: string, itemId: string, c: ItemColumns): Promise<void> {
  await tx.query(
    `update wm_items
        set type = $3, title = $4, description = $5, status = $6, sprint_id = $7, epic_number = $8, labels = $9,
            assignee = $10, start_date = $11::date, due_date = $12::date, points = $13, linked_documents = $14, ${TOUCH}
      where account_id = $1 and id = $2`,
    [accountId, itemId, c.type, c.title, c.description, c.status, c.sprint_id, c.epic_number, c.labels,
      c.assignee, c.start_date, c.due_date, c.points, c.linked_documents],
  );
}

export interface ChangeEntry {
  field: string;
  from: string | null;
  to: string | null;
}

/** The item's next history seq, as an SQL expression over $1 (account) and `item` (its id). */
const NEXT_SEQ = (item: string) => `coalesce((select max(h.seq) from wm_item_history h where h.account_id = $1 and h.item_id = ${item}), 0)`;

/** One 'change' row per entry, in order, at the transaction's moment, by the actor. */
export async function insertChanges(tx: Queryable, accountId: string, itemId: string, actor: string | null, changes: ChangeEntry[]): Promise<void> {
  if (changes.length === 0) return;
  await tx.query(
    `insert into wm_item_history (account_id, item_id, seq, at, actor, kind, field, from_value, to_value)
     select $1, $2, ${NEXT_SEQ('$2')} + c.ord, now(), $3, 'change', c.field, c.from_value, c.to_value
       from unnest($4::text[], $5::text[], $6::text[]) with ordinality as c (field, from_value, to_value, ord)`,
    [accountId, itemId, actor, changes.map((c) => c.field), changes.map((c) => c.from), changes.map((c) => c.to)],
  );
}

/** Soft delete: the row and its history stay; every read then finds nothing. */
export async function deleteItem(tx: Queryable, accountId: string, itemId: string): Promise<void> {
  await tx.query(`update wm_items set deleted_at = now(), ${TOUCH} where account_id = $1 and id = $2`, [accountId, itemId]);
}

/**
 * The live items of a deleted epic leave it, each with its 'change' row (epic: the key → null), so
 * no item names an epic that reads as unknown. Returns how many left.
 */
export async function detachFromEpic(tx: Queryable, accountId: string, projectId: string, epicNumber: number, epicKey: string, actor: string | null): Promise<number> {
  const rows = await tx.query(
    `with c as (
       update wm_items set epic_number = null, ${TOUCH}
        where account_id = $1 and project_id = $2 and epic_number = $3 and deleted_at is null
        returning id
     )
     insert into wm_item_history (account_id, item_id, seq, at, actor, kind, field, from_value, to_value)
     select $1, c.id, ${NEXT_SEQ('c.id')} + 1, now(), $4, 'change', 'epic', $5, null from c
     returning 1`,
    [accountId, projectId, epicNumber, actor, epicKey],
  );
  return rows.length;
}

/**
 * Items leave one sprint for another (null: the backlog), each with its 'change' row (sprint: the
 * old id → the new one) and a new updated_at, as an edit of the field would write them.
 */
export async function moveItemsToSprint(tx: Queryable, accountId: string, itemIds: string[], from: string | null, to: string | null, actor: string | null): Promise<void> {
  if (itemIds.length === 0) return;
  await tx.query(
    `with c as (
       update wm_items set sprint_id = $3, ${TOUCH}
        where account_id = $1 and id = any ($2::uuid[])
        returning id
     )
     insert into wm_item_history (account_id, item_id, seq, at, actor, kind, field, from_value, to_value)
     select $1, c.id, ${NEXT_SEQ('c.id')} + 1, now(), $4, 'change', 'sprint', $5::text, $3::text from c`,
    [accountId, itemIds, to, actor, from],
  );
}

/** The item's new place in the backlog (the caller holds the project's row lock: moves take turns). */
export async function setRank(tx: Queryable, accountId: string, itemId: string, rank: string): Promise<void> {
  await tx.query('update wm_items set rank = $3 where account_id = $1 and id = $2', [accountId, itemId, rank]);
}

export async function insertComment(tx: Queryable, accountId: string, itemId: string, actor: string | null, text: string): Promise<number> {
  const [row] = await tx.query<{ seq: number }>(
    `insert into wm_item_history (account_id, item_id, seq, at, actor, kind, text)
     select $1, $2, ${NEXT_SEQ('$2')} + 1, now(), $3, 'comment', $4
     returning seq`,
    [accountId, itemId, actor, text],
  );
  return row!.seq;
}

export interface CommentRow {
  actor: string | null;
}

/** A live comment of the item by seq (a change, or a deleted comment, is not one). */
export async function getComment(tx: Queryable, accountId: string, itemId: string, seq: number): Promise<CommentRow | null> {
  const rows = await tx.query<CommentRow>(
    `select actor from wm_item_history
      where account_id = $1 and item_id = $2 and seq = $3 and kind = 'comment' and deleted_at is null`,
    [accountId, itemId, seq],
  );
  return rows[0] ?? null;
}

export async function editComment(tx: Queryable, accountId: string, itemId: string, seq: number, text: string): Promise<void> {
  await tx.query(`update wm_item_history set text = $4, edited_at = now() where account_id = $1 and item_id = $2 and seq = $3`, [
    accountId, itemId, seq, text,
  ]);
}

/** The text goes (the author asked for it); the row keeps its seq, so no later comment takes it. */
export async function deleteComment(tx: Queryable, accountId: string, itemId: string, seq: number): Promise<void> {
  await tx.query(`update wm_item_history set text = '', deleted_at = now() where account_id = $1 and item_id = $2 and seq = $3`, [
    accountId, itemId, seq,
  ]);
}
