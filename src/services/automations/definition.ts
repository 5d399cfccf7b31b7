// Automations as files and builder bodies (the definition format of issue 13): create one in a
// project of the account, export one, copy and delete. A definition is the fixture's automation
// with `project_id` for `project` and no `ref`, validated by the fixture's own validator
// (validateAutomations) wrapped as a one-automation account, so a rule and its message are the
// same from a fixture, `automations create` and the hub. create(export(x)) gives back x.
import type { Db } from '../../db/db.js';
import type { AutomationStatus } from '../../domain/automation.js';
import { firstOf } from '../../lib/first.js';
import { uuidv7, isUuid } from '../../lib/ids.js';
import { DefinitionError, Fields, RefSet, ROOT, fail, type Json, type JsonObject } from '../../lib/json-fields.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { stopAutomationRun } from '../automation-runs/store.js';
import { missing, Refusal } from '../refusal.js';
import { activeRunIds, findDefinition, findProject, findVersion, listVersions, insertDraftAutomation, markDeleted, type DefinitionRow, type VersionRow } from './definition-store.js';
import { publishProblems, type Problem } from './publish-rules.js';
import { effectiveSettings, type ProjectSettings } from '../settings/service.js';
import { moveStatus, publishDraft, type Draft, type Publisher } from './store.js';
import { validateAutomations } from './validate.js';

/** The definition format's keys, in the order an export prints them. */
export const DEFINITION_FIELDS = ['project_id', 'name', 'status', 'trigger', 'run_only_if', 'reenroll', 'steps'] as const;

export interface AutomationDefinition {
  project_id: string;
  name: string;
  status: AutomationStatus;
  trigger: JsonObject;
  run_only_if: JsonObject | null;
  reenroll: Draft['reenroll'];
  steps: Json[];
}

/** The error a deleted automation's active runs end with. */
export const DELETED_IN_HUB = 'The automation was deleted in the hub';

/** The draft (or a version, with the automation's name and project) in the definition format, keys in order. */
export function definitionOf(row: DefinitionRow, version?: VersionRow): AutomationDefinition {
  const src = version ?? row;
  return {
    project_id: row.project_id,
    name: row.name,
    status: row.status,
    trigger: src.trigger,
    run_only_if: src.run_only_if ?? null,
    reenroll: src.reenroll,
    steps: src.steps,
  };
}

/** What the versions list says published a version: the person, or "operator" for the CLI. */
export function publisherOf(actor: Actor): Publisher {
  return actor.kind === 'user' ? { label: actor.label, userId: actor.id } : { label: 'operator', userId: null };
}

/**
 * Validates `body` (parsed JSON) as a definition for the account: the project must be one of the
 * account's. Throws DefinitionError with the body's path (`steps[1].type`, `project_id`).
 */
export async function validateDefinition(db: Db, accountId: string, body: unknown): Promise<{ projectId: string; status: AutomationStatus; draft: Draft }> {
  const f = new Fields(ROOT, body, DEFINITION_FIELDS);
  const projectId = f.has('project_id') ? f.o.project_id : undefined;
  if (projectId === undefined) fail('project_id', 'missing (required)');
  if (typeof projectId !== 'string' || !isUuid(projectId)) fail('project_id', `must be a project id (a UUID), got ${JSON.stringify(projectId)}`);
  // The fixture validator resolves `project` against the account's refs: here the one project the
  // body names, when it is the account's, so an unknown one gets the fixture's words.
  const projects = new RefSet<never>('project');
  const id = projectId.toLowerCase();
  if (await findProject(db, accountId, id)) projects.add(id, ROOT, undefined as never);
  const { project_id: _omit, ...rest } = f.o;
  const wrapped = { ref: 'automation', project: id, ...rest };
  try {
    const specs = validateAutomations(new Fields(ROOT, { automations: [wrapped] }, ['automations']), { projects, items: new RefSet('item') });
    const spec = firstOf(specs, 'the validated automation');
    return {
      projectId: id,
      status: spec.status,
      draft: {
        name: spec.name,
        trigger: spec.trigger as unknown as JsonObject,
        steps: spec.steps as unknown as Json[],
        run_only_if: spec.run_only_if,
        reenroll: spec.reenroll,
      },
    };
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    const path = err.path.replace(/^automations\[0\]\.?/, '').replace(/^project\b/, 'project_id') || ROOT;
    throw new DefinitionError(path, err.detail.replaceAll('automations[0].', ''));
  }
}

/** The publish rules as a Refusal: the first problem, its path as param. */
export function refuseProblems(id: string, d: Pick<Draft, 'trigger' | 'run_only_if' | 'steps'>): void {
  const [first] = publishProblems(d);
  if (first) throw new Refusal(`automation ${id} cannot be published: ${first.path}: ${first.message}`, 'automation_not_publishable', { param: first.path });
}

/**
 * Creates the automation (audited automation.created). Status published or paused publishes it as
 * version 1 at once, as the fixture loader does, after the publish rules; paused stays paused.
 */
export async function createAutomation(db: Db, accountId: string, body: unknown, actor: Actor): Promise<string> {
  const { projectId, status, draft } = await validateDefinition(db, accountId, body);
  const id = uuidv7();
  if (status !== 'draft') {
    if (!draft.steps.length) throw new Refusal(`a ${status} automation needs steps: add steps or create it as a draft`, 'automation_not_publishable', { param: 'steps' });
    refuseProblems(id, draft);
  }
  await db.transaction(async (tx) => {
    await insertDraftAutomation(tx, accountId, id, projectId, draft);
    let version = 0;
    if (status !== 'draft') {
      ({ version } = await publishDraft(tx, accountId, id, publisherOf(actor)));
      if (status === 'paused') await moveStatus(tx, accountId, id, 'published', 'paused');
    }
    await recordAudit(tx, { accountId, actor, action: 'automation.created', objectKind: 'automation', objectId: id, detail: { name: draft.name, status, version } });
  });
  return id;
}

async function requireLive(db: Db, accountId: string | null, id: string): Promise<DefinitionRow> {
  const row = await findDefinition(db, accountId, id);
  if (!row) throw missing('automation', accountId ? `no automation ${id} in account ${accountId}` : `no automation ${id}`);
  return row;
}

/** A draft copy in the same project: "Copy of <name>", never published, no webhook secret. */
export async function copyAutomation(db: Db, accountId: string, id: string, actor: Actor): Promise<string> {
  const src = await requireLive(db, accountId, id);
  const copy = uuidv7();
  await db.transaction(async (tx) => {
    const draft: Draft = { name: `Copy of ${src.name}`, trigger: src.trigger, steps: src.steps, run_only_if: src.run_only_if, reenroll: src.reenroll };
    await insertDraftAutomation(tx, accountId, copy, src.project_id, draft);
    await recordAudit(tx, { accountId, actor, action: 'automation.created', objectKind: 'automation', objectId: copy, detail: { name: draft.name, status: 'draft', copied_from: id } });
  });
  return copy;
}

/**
 * Soft delete: gone from /v1 and the hub, takes no enrollment, its schedule and webhook stop; its
 * running and waiting runs end `stopped` (DELETED_IN_HUB) in the same transaction; finished runs
 * stay readable. Audited automation.deleted with how many runs it stopped.
 */
export async function deleteAutomation(db: Db, accountId: string, id: string, actor: Actor): Promise<{ stopped: number }> {
  return db.transaction(async (tx) => {
    if (!(await markDeleted(tx, accountId, id))) throw missing('automation', `no automation ${id} in account ${accountId}`);
    let stopped = 0;
    for (const run of await activeRunIds(tx, accountId, id)) if (await stopAutomationRun(tx, accountId, run, DELETED_IN_HUB)) stopped++;
    await recordAudit(tx, { accountId, actor, action: 'automation.deleted', objectKind: 'automation', objectId: id, detail: { stopped_runs: stopped } });
    return { stopped };
  });
}

/** The live automation or a not_found Refusal (accountId null: any account, for the operator). */
export const liveAutomation = requireLive;

/** The draft, or version `version` (with the automation's name, project and status), in the definition format. */
export async function exportAutomation(db: Db, accountId: string | null, id: string, version?: number): Promise<AutomationDefinition> {
  if (version === undefined) return definitionOf(await requireLive(db, accountId, id));
  return (await versionView(db, accountId, id, version)).definition;
}

/** One published version as the versions view shows it: when, by whom, and its definition. */
export async function versionView(
  db: Db,
  accountId: string | null,
  id: string,
  version: number,
): Promise<{ version: number; published_at: Date; published_by: string | null; definition: AutomationDefinition }> {
  const row = await requireLive(db, accountId, id);
  const v = await findVersion(db, row.account_id, id, version);
  if (!v) throw missing('automation version', `automation ${id} has no version ${version} (published: ${row.published_version})`);
  return { version, published_at: v.published_at, published_by: v.published_by, definition: definitionOf(row, v) };
}

/** What the builder's editor shows besides /v1's summary: draft, published version, problems, project settings. */
export interface EditorState {
  row: DefinitionRow;
  draft: AutomationDefinition;
  published: AutomationDefinition | null;
  /** The published version's number; 0 when never published. */
  publishedVersion: number;
  problems: Problem[];
  project: { id: string; name: string } & ProjectSettings;
}

export async function editorState(db: Db, accountId: string, id: string): Promise<EditorState> {
  const row = await requireLive(db, accountId, id);
  const [version, project] = await Promise.all([
    row.published_version > 0 ? findVersion(db, accountId, id, row.published_version) : Promise.resolve(null),
    findProject(db, accountId, row.project_id),
  ]);
  return {
    row,
    draft: definitionOf(row),
    published: version ? definitionOf(row, version) : null,
    publishedVersion: version?.version ?? 0,
    problems: publishProblems(row),
    project: { id: row.project_id, name: project?.name ?? '', ...effectiveSettings(project?.settings ?? {}) },
  };
}

/** Every published version, newest first, with who published it. */
export async function versionsOf(db: Db, accountId: string, id: string): Promise<VersionRow[]> {
  await requireLive(db, accountId, id);
  return listVersions(db, accountId, id);
}
