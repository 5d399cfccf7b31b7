// Comments on a work item (Markdown text, kept as written): any member adds one; only its author
// edits or deletes it, whatever their role (a comment speaks for its author, so an admin does
// not rewrite it). A comment is named by its seq in the item's history. An edit keeps the
// comment's place and moment and notes when it was edited; a delete clears the text and hides
// the entry (write-store.ts says why the row stays). Comments do not move the item's updated_at:
// that is the version of its fields, and a comment never conflicts with an edit of them.
import type { Db } from '../../db/db.js';
import { ApiError, found } from '../../domain/errors.js';
import { WM_LIMITS } from '../../domain/work-item.js';
import type { Actor } from '../audit/service.js';
import { checkedText } from './fields.js';
import { actorId, lockedItem, REPLAYABLE } from './items.js';
import { deleteComment, editComment, getComment, insertComment } from './write-store.js';

const commentText = (raw: string) => checkedText(raw, 'text', 'multi-line', WM_LIMITS.comment, false);

/** Adds the comment; its seq. */
export async function addComment(db: Db, accountId: string, projectId: string, key: string, rawText: string, actor: Actor): Promise<number> {
  const text = commentText(rawText);
  return db.transaction(async (tx) => {
    const { item } = await lockedItem(tx, accountId, projectId, key);
    return insertComment(tx, accountId, item.id, actorId(actor), text);
  }, REPLAYABLE);
}

type CommentChange = { kind: 'edit'; text: string } | { kind: 'delete' };

/** Edits or deletes a live comment of the item: 404 when there is none at seq, 403 when it is someone else's. */
async function changeComment(db: Db, accountId: string, projectId: string, key: string, seq: number, change: CommentChange, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const { item } = await lockedItem(tx, accountId, projectId, key);
    const comment = found(await getComment(tx, accountId, item.id, seq), 'comment');
    if (comment.actor === null || comment.actor !== actorId(actor)) {
      throw new ApiError('not_your_comment', 'Only the person who wrote this comment may edit or delete it.');
    }
    if (change.kind === 'edit') await editComment(tx, accountId, item.id, seq, change.text);
    else await deleteComment(tx, accountId, item.id, seq);
  }, REPLAYABLE);
}

export async function editOwnComment(db: Db, accountId: string, projectId: string, key: string, seq: number, rawText: string, actor: Actor): Promise<void> {
  await changeComment(db, accountId, projectId, key, seq, { kind: 'edit', text: commentText(rawText) }, actor);
}

export async function deleteOwnComment(db: Db, accountId: string, projectId: string, key: string, seq: number, actor: Actor): Promise<void> {
  await changeComment(db, accountId, projectId, key, seq, { kind: 'delete' }, actor);
}
