// Automations, write side, for the operator commands only (the API never changes an automation):
// replacing the draft, publishing it as an immutable version, pausing and resuming. Every move
// re-checks the state in its UPDATE (or holds the row lock), so a concurrent move is refused
// rather than overwritten.
import type { Queryable } from '../../db/db.js';
import { FixtureError, Fields, RefSet, ROOT, type Json, type JsonObject } from '../../fixtures/read.js';
import type { AccountContext, AutomationSpec } from '../../fixtures/types.js';
import { validateAutomations } from '../../fixtures/validate-flows.js';
import type { AutomationStatus, ReenrollRule } from '../../domain/automation.js';

export interface AutomationDraftRow {
  id: string;
  account_id: string;
  name: string;
  status: AutomationStatus;
  trigger: JsonObject;
  steps: Json[];
  run_only_if: JsonObject | null;
  reenroll: ReenrollRule;
  published_version: number;
  deleted: boolean;
}

export interface Draft {
  name: string;
  trigger: JsonObject;
  steps: Json[];
  run_only_if: JsonObject | null;
  reenroll: AutomationDraftRow['reenroll'];
}

/** The fields an edit file may carry; any it leaves out keep their draft value. */
export const EDIT_FIELDS = ['trigger', 'steps', 'run_only_if', 'reenroll', 'name'] as const;

/** An automation by id across accounts (operator commands), optionally narrowed to one account. */
export async function findAutomationDraft(
  db: Queryable,
  id: string,
  accountId: string | null,
  forUpdate = false,
): Promise<AutomationDraftRow | null> {
  const rows = await db.query<AutomationDraftRow>(
    `select id, account_id, name, status, trigger, steps, run_only_if, reenroll, published_version,
            deleted_at is not null as deleted
       from automations where id = $1 and ($2::uuid is null or account_id = $2::uuid)${forUpdate ? ' for update' : ''}`,
    [id, accountId],
  );
  return rows[0] ?? null;
}

/**
 * The draft after applying `edit` (parsed JSON of the edit file), validated exactly as the fixture
 * loader validates an automation: the merged draft goes through validateAutomations as a
 * one-automation account, so the rules (step types, ids, next/branches targets, `t` reserved, a
 * published automation needs a trigger type) cannot drift apart. Messages name the path in the
 * edit file (`steps[1].type: …`). Throws FixtureError.
 */
export function applyEdit(current: AutomationDraftRow, edit: unknown): Draft {
  const f = new Fields(ROOT, edit, EDIT_FIELDS);
  if (!EDIT_FIELDS.some((k) => f.has(k))) {
    throw new FixtureError(ROOT, `changes nothing: give at least one of ${EDIT_FIELDS.join(', ')}`);
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
  const ctx = { users: new RefSet('user'), projects, items: new RefSet('item') } as unknown as AccountContext;
  let spec: AutomationSpec;
  try {
    [spec] = validateAutomations(new Fields(ROOT, { automations: [merged] }, ['automations']), ctx);
  } catch (err) {
    if (!(err instanceof FixtureError)) throw err;
    // automations[0].steps[1].type → steps[1].type: the path as the operator wrote it.
    const path = err.path.replace(/^automations\[0\]\.?/, '') || ROOT;
    throw new FixtureError(path, err.detail);
  }
  return {
    name: spec.name,
    trigger: spec.trigger as unknown as JsonObject,
    steps: spec.steps as unknown as Json[],
    run_only_if: spec.run_only_if,
    reenroll: spec.reenroll,
  };
}

/** Replaces the draft; the running version is untouched (runs keep theirs). */
export async function replaceDraft(tx: Queryable, accountId: string, id: string, d: Draft): Promise<boolean> {
  const rows = await tx.query(
    `update automations
        set name = $3, trigger = $4::jsonb, steps = $5::jsonb, run_only_if = $6::jsonb, reenroll = $7, updated_at = now()
      where account_id = $1 and id = $2 and deleted_at is null
      returning id`,
    [accountId, id, d.name, JSON.stringify(d.trigger), JSON.stringify(d.steps), d.run_only_if === null ? null : JSON.stringify(d.run_only_if), d.reenroll],
  );
  return rows.length > 0;
}

/** Whether the draft differs from the published version (false for a never-published draft). */
export async function hasUnpublishedChanges(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await db.query<{ changed: boolean }>(
    `select (v.trigger <> a.trigger or v.steps <> a.steps
             or coalesce(v.run_only_if, 'null'::jsonb) <> coalesce(a.run_only_if, 'null'::jsonb)
             or v.reenroll <> a.reenroll) as changed
       from automations a
       join automation_versions v on v.account_id = a.account_id and v.automation_id = a.id and v.version = a.published_version
      where a.account_id = $1 and a.id = $2`,
    [accountId, id],
  );
  return rows[0]?.changed ?? false;
}

/**
 * Snapshots the draft as the next version and makes it the one that runs. A draft becomes
 * `published`; a paused automation stays paused (only resuming moves paused → published, and an
 * operator who paused it must not have it start sending again as a side effect). Call with the
 * automation row locked (findAutomationDraft(..., forUpdate)).
 */
export async function publishDraft(tx: Queryable, accountId: string, id: string): Promise<{ version: number; status: AutomationStatus }> {
  const [{ version }] = await tx.query<{ version: number }>(
    `insert into automation_versions (account_id, automation_id, version, trigger, steps, run_only_if, reenroll)
     select a.account_id, a.id,
            coalesce((select max(v.version) from automation_versions v where v.account_id = a.account_id and v.automation_id = a.id), 0) + 1,
            a.trigger, a.steps, a.run_only_if, a.reenroll
       from automations a where a.account_id = $1 and a.id = $2
     returning version`,
    [accountId, id],
  );
  const [row] = await tx.query<{ status: AutomationStatus }>(
    `update automations
        set published_version = $3, status = case when status = 'draft' then 'published' else status end, updated_at = now()
      where account_id = $1 and id = $2
      returning status`,
    [accountId, id, version],
  );
  return { version, status: row.status };
}

/** Moves the status from `from` to `to`; false when the automation was not in `from` (or is deleted). */
export async function moveStatus(tx: Queryable, accountId: string, id: string, from: AutomationStatus, to: AutomationStatus): Promise<boolean> {
  const rows = await tx.query(
    `update automations set status = $4, updated_at = now()
      where account_id = $1 and id = $2 and status = $3 and deleted_at is null
      returning id`,
    [accountId, id, from, to],
  );
  return rows.length > 0;
}
