// Automations: editing, publishing, pausing and resuming a draft, what the hub's builder and the
// operator's `automations` commands do (the API never changes an automation). Moves follow the
// spec's Automation status table: publishing a draft → published, pausing published → paused,
// resuming paused → published; any other move is a Refusal that says what state it is in.
import type { Db, Queryable } from '../../db/db.js';
import { releaseHeldRuns } from '../../engine/automations/store.js';
import { firstOf } from '../../lib/first.js';
import { DefinitionError, Fields, RefSet, ROOT, type Json, type JsonObject } from '../../lib/json-fields.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { missing, Refusal } from '../refusal.js';
import {
  findAutomationDraft,
  hasUnpublishedChanges,
  moveStatus,
  publishDraft,
  replaceDraft,
  type AutomationDraftRow,
  type Draft,
} from './store.js';
import { validateAutomations, type AutomationSpec } from './validate.js';
import { publisherOf, refuseProblems } from './definition.js';

/** The fields an edit may carry; any it leaves out keep their draft value. */
export const EDIT_FIELDS = ['trigger', 'steps', 'run_only_if', 'reenroll', 'name'] as const;

/**
 * The draft after applying `edit` (parsed JSON), validated exactly as the fixture loader
 * validates an automation: the merged draft goes through validateAutomations as a
 * one-automation account, so the rules (step types, ids, next/branches targets, `t` reserved, a
 * published automation needs a trigger type) cannot drift apart. Messages name the path in the
 * edit (`steps[1].type: …`). Throws DefinitionError.
 */
export function applyEdit(current: AutomationDraftRow, edit: unknown): Draft {
  const f = new Fields(ROOT, edit, EDIT_FIELDS);
  if (!EDIT_FIELDS.some((k) => f.has(k))) {
    throw new DefinitionError(ROOT, `changes nothing: give at least one of ${EDIT_FIELDS.join(', ')}`);
  }
  const pick = <K extends (typeof EDIT_FIELDS)[number]>(k: K, cur: unknown): unknown => (f.has(k) ? f.o[k] : cur);
  const merged = {
    ref: 'automation',
    project: 'project',
    status: current.status,
    name: pick('name', current.name),
    trigger: pick('trigger', current.trigger),
    steps: pick('steps', current.steps),
    run_only_if: pick('run_only_if', current.run_only_if),
    reenroll: pick('reenroll', current.reenroll),
  };
  const projects = new RefSet<never>('project');
  projects.add('project', ROOT, undefined as never);
  let spec: AutomationSpec;
  try {
    const specs = validateAutomations(new Fields(ROOT, { automations: [merged] }, ['automations']), { projects, items: new RefSet('item') });
    spec = firstOf(specs, 'the validated automation');
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    // automations[0].steps[1].type → steps[1].type: the path as the operator wrote it.
    const path = err.path.replace(/^automations\[0\]\.?/, '') || ROOT;
    throw new DefinitionError(path, err.detail.replaceAll('automations[0].', ''));
  }
  return {
    name: spec.name,
    trigger: spec.trigger as unknown as JsonObject,
    steps: spec.steps as unknown as Json[],
    run_only_if: spec.run_only_if,
    reenroll: spec.reenroll,
  };
}

/** Which automation: by id, optionally narrowed to one account (ids are unique anyway). */
export interface AutomationRef {
  automationId: string;
  accountId: string | null;
}

async function requireAutomation(db: Queryable, a: AutomationRef, forUpdate = false): Promise<AutomationDraftRow> {
  const found = await findAutomationDraft(db, a.automationId, a.accountId, forUpdate);
  if (!found) throw missing('automation', a.accountId ? `no automation ${a.automationId} in account ${a.accountId}` : `no automation ${a.automationId}`);
  if (found.deleted) throw missing('automation', `automation ${a.automationId} was deleted in the hub`);
  return found;
}

export interface SavedDraft {
  automation: AutomationDraftRow;
  steps: number;
  /** Whether the saved draft differs from the published version; null when never published. */
  differsFromPublished: boolean | null;
}

/** Replaces the draft with `edit` merged in; the running version is untouched (runs keep theirs). */
export async function editDraft(db: Db, a: AutomationRef, edit: unknown): Promise<SavedDraft> {
  const saved = await db.transaction(async (tx) => {
    // Locked while the edit is merged and validated, so a concurrent edit or publish cannot interleave.
    const current = await requireAutomation(tx, a, true);
    const draft = applyEdit(current, edit);
    await replaceDraft(tx, current.account_id, current.id, draft);
    return { automation: current, steps: draft.steps.length };
  });
  const { automation } = saved;
  if (automation.published_version === 0) return { ...saved, differsFromPublished: null };
  return { ...saved, differsFromPublished: await hasUnpublishedChanges(db, automation.account_id, automation.id) };
}

/**
 * Snapshots the draft as the next version; a paused automation stays paused until resumed. The
 * actor's audit entry (automation.published) is written in the same transaction.
 */
export async function publishAutomation(
  db: Db,
  a: AutomationRef,
  actor: Actor,
): Promise<{ id: string; version: number; status: AutomationDraftRow['status'] }> {
  return db.transaction(async (tx) => {
    const current = await requireAutomation(tx, a, true);
    const id = current.id;
    const trigger = current.trigger as { type?: unknown };
    if (trigger.type === null || trigger.type === undefined) {
      throw new Refusal(`automation ${id} has no trigger type: choose one (automations edit) before publishing`, 'automation_not_publishable');
    }
    if (!current.steps.length) throw new Refusal(`automation ${id} has no steps: add steps (automations edit) before publishing`, 'automation_not_publishable');
    if (current.published_version > 0 && !(await hasUnpublishedChanges(tx, current.account_id, id))) {
      throw new Refusal(`automation ${id} is ${current.status} and its draft has no unpublished changes: nothing to publish`, 'automation_status_conflict');
    }
    // Step configs, a schedule and the Run-only-if filter: the first problem, its body path as param.
    refuseProblems(id, current);
    const { version, status } = await publishDraft(tx, current.account_id, id, publisherOf(actor));
    await recordAudit(tx, { accountId: current.account_id, actor, action: 'automation.published', objectKind: 'automation', objectId: id, detail: { version } });
    return { id, version, status };
  });
}

export type Move = 'pause' | 'resume';

const FROM: Record<Move, 'published' | 'paused'> = { pause: 'published', resume: 'paused' };
const TO: Record<Move, 'published' | 'paused'> = { pause: 'paused', resume: 'published' };
const WHY_NOT: Record<Move, Record<string, string>> = {
  pause: {
    draft: 'is a draft: only a published automation can be paused',
    paused: 'is already paused',
  },
  resume: {
    draft: 'is a draft: only a paused automation can be resumed (publish it instead)',
    published: 'is already published (running): only a paused automation can be resumed',
  },
};

/** Pauses or resumes (audited as automation.paused or .resumed); the automation as it was before the move. */
export async function moveAutomation(db: Db, action: Move, a: AutomationRef, actor: Actor): Promise<AutomationDraftRow> {
  const current = await requireAutomation(db, a);
  const id = current.id;
  // The UPDATE re-checks the status: one that moved since the read above is refused, not overwritten.
  const moved =
    current.status === FROM[action] &&
    (await db.transaction(async (tx) => {
      if (!(await moveStatus(tx, current.account_id, id, FROM[action], TO[action]))) return false;
      // Waiting runs that came due while paused were held back: they carry on now, not a minute later.
      if (action === 'resume') await releaseHeldRuns(tx, current.account_id, id);
      const audit = action === 'pause' ? 'automation.paused' : 'automation.resumed';
      await recordAudit(tx, { accountId: current.account_id, actor, action: audit, objectKind: 'automation', objectId: id });
      return true;
    }));
  if (moved) return current;
  const now = await requireAutomation(db, a);
  throw new Refusal(`automation ${id} ${WHY_NOT[action][now.status] ?? `is ${now.status}`}`, 'automation_status_conflict');
}
