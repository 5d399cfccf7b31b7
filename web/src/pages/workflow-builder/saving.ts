// The rules of a workflow save, without React, fetch or localStorage (useDraft and useSave apply
// them): where a draft starts from (a draft kept in the browser, or the server's definition laid
// out), what a save sends (the updated_at it started from, so a concurrent edit is a 409 instead of
// a silent overwrite), and what a failed save means for the screen (a conflict or a refusal).
import { HubError } from '../../lib/api';
import { layeredLayout } from './layout';
import { definitionOf, sameDefinition, type Definition, type Draft, type WorkflowEditor } from './model';
import { problemOf, type Problem } from './problems';

/** A draft kept in the browser between visits. */
export interface Stored {
  /** The workflow's updated_at the draft started from (null: a new workflow). */
  base_updated_at: string | null;
  draft: Draft;
}

/** The stored text read back, or null when there is none or it is not a draft (an old or broken entry). */
export function parseStored(raw: string | null): Stored | null {
  try {
    const s = raw ? (JSON.parse(raw) as Stored) : null;
    return s && s.draft && Array.isArray(s.draft.blocks) && Array.isArray(s.draft.edges) ? s : null;
  } catch {
    return null;
  }
}

/** A definition with every block placed by the auto-layout. */
export const laidOut = (d: Definition): Draft => ({ ...definitionOf(d), positions: layeredLayout(d.blocks.map((b) => b.id), d.edges) });

/**
 * Where the editing starts: a stored draft that differs from the server's definition is restored,
 * with the updated_at it began from (if the workflow changed since, saving it is a 409, not a
 * silent overwrite); otherwise the server's definition, laid out, or placed where the first save
 * of a new workflow left its blocks (`positions`), when they fit every block.
 */
export function startingDraft(
  stored: Stored | null,
  editor: WorkflowEditor | null,
  empty: Definition,
  positions?: Draft['positions'],
): { draft: Draft; restored: boolean; updatedAt: string | null } {
  const serverAt = editor?.updated_at ?? null;
  if (stored && !sameDefinition(stored.draft, editor?.definition ?? empty)) {
    return { draft: stored.draft, restored: true, updatedAt: stored.base_updated_at ?? serverAt };
  }
  const fresh = laidOut(editor?.definition ?? empty);
  if (positions && fresh.blocks.every((b) => positions[b.id])) fresh.positions = positions;
  return { draft: fresh, restored: false, updatedAt: serverAt };
}

/** The body of a PUT: the definition, and the updated_at it started from unless forced over ("Save mine over it"). */
export function putBody(draft: Definition, updatedAt: string | null, force?: boolean): Definition | (Definition & { expected_updated_at: string }) {
  const body = definitionOf(draft);
  return force || !updatedAt ? body : { ...body, expected_updated_at: updatedAt };
}

/** A refusal kept with the definition it was about. */
export interface Refused {
  problem: Problem | null;
  sent: Definition;
}

/** A failed save: someone else saved first (a conflict), or the server refused what was `sent`; null when nothing was sent. */
export function failureOf(err: unknown, sent: Definition | undefined): { conflict: true } | { refused: Refused } | null {
  if (err instanceof HubError && err.code === 'workflow_changed') return { conflict: true };
  if (sent) return { refused: { problem: problemOf(err, sent), sent } };
  return null;
}

/** A refusal outlives its cause once the draft is no longer the definition it was about. */
export const isStale = (refused: Refused | null, draft: Definition): boolean => !!refused && !sameDefinition(draft, refused.sent);
