// Workflows made and changed one at a time: what the hub's builder and the operator's `workflows`
// commands do (the API never changes a workflow). Each change is validated by the fixture's rules
// (./definition.ts) and audited in its own transaction. A run keeps the blocks and edges it was
// queued with (src/queue/enqueue-store.ts), so nothing here changes a run in flight.
import type { Db, Queryable } from '../../db/db.js';
import type { WorkflowStatus } from '../../domain/workflow.js';
import { nextOccurrence } from '../../engine/schedules/cron.js';
import { uuidv7 } from '../../lib/ids.js';
import { DefinitionError } from '../../lib/json-fields.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { missing, Refusal } from '../refusal.js';
import { exportDefinition, namedIds, parseDefinition, type WorkflowDefinition } from './definition.js';
import {
  existingRefs,
  findWorkflowForEdit,
  insertWorkflows,
  markWorkflowDeleted,
  updateWorkflow,
  updateWorkflowSchedule,
  updateWorkflowStatus,
  type WorkflowEditRow,
  type WorkflowFields,
} from './store.js';
import { scheduleProblem } from './validate.js';

/** Which workflow: by id, narrowed to one account when given (the operator may leave it out). */
export interface WorkflowRef {
  workflowId: string;
  accountId: string | null;
}

async function requireWorkflow(db: Queryable, w: WorkflowRef, forUpdate = false): Promise<WorkflowEditRow> {
  const found = await findWorkflowForEdit(db, w.workflowId, w.accountId, forUpdate);
  if (!found) throw missing('workflow', w.accountId ? `no workflow ${w.workflowId} in account ${w.accountId}` : `no workflow ${w.workflowId}`);
  return found;
}

/** The definition validated against the account's projects and items. Throws DefinitionError. */
async function checked(db: Queryable, accountId: string, body: unknown): Promise<WorkflowDefinition> {
  const named = namedIds(body);
  return parseDefinition(body, await existingRefs(db, accountId, named.projectIds, named.itemIds));
}

const nextAt = (d: { schedule: string | null; schedule_timezone: string }) =>
  d.schedule === null ? null : nextOccurrence(d.schedule, d.schedule_timezone, new Date());

async function reread(db: Queryable, accountId: string, id: string): Promise<WorkflowEditRow> {
  const row = await findWorkflowForEdit(db, id, accountId);
  if (!row) throw new Error(`workflow ${id} vanished after it was saved`);
  return row;
}

/** The columns a definition saves, its schedule due at `scheduleNextAt`. */
function fieldsOf(d: WorkflowDefinition, scheduleNextAt: Date | null): WorkflowFields {
  return {
    projectId: d.project_id,
    name: d.name,
    description: d.description,
    status: d.status,
    blocks: d.blocks,
    edges: d.edges,
    schedule: d.schedule,
    scheduleTimezone: d.schedule_timezone,
    scheduleNextAt,
  };
}

async function insertOne(tx: Queryable, accountId: string, id: string, d: WorkflowDefinition): Promise<void> {
  await insertWorkflows(tx, accountId, [{ id, ...fieldsOf(d, nextAt(d)) }]);
}

/** A new workflow in the account from a definition (parsed JSON). Audited as workflow.created. */
export async function createWorkflow(db: Db, accountId: string, body: unknown, actor: Actor): Promise<WorkflowEditRow> {
  return db.transaction(async (tx) => {
    const d = await checked(tx, accountId, body);
    const id = uuidv7();
    await insertOne(tx, accountId, id, d);
    await recordAudit(tx, { accountId, actor, action: 'workflow.created', objectKind: 'workflow', objectId: id, detail: { name: d.name } });
    return reread(tx, accountId, id);
  });
}

/**
 * Replaces the whole definition (a PUT: fields left out take their defaults). With
 * `expectedUpdatedAt`, a workflow saved by someone else since is refused (kind 'conflict') rather
 * than overwritten. Audited as workflow.updated.
 */
export async function replaceWorkflow(
  db: Db,
  w: WorkflowRef,
  body: unknown,
  actor: Actor,
  expectedUpdatedAt: string | null = null,
): Promise<WorkflowEditRow> {
  return db.transaction(async (tx) => {
    // Locked while the definition is checked and saved, so two saves cannot interleave.
    const current = await requireWorkflow(tx, w, true);
    if (expectedUpdatedAt !== null && current.updated_at.getTime() !== Date.parse(expectedUpdatedAt)) {
      throw new Refusal(
        `workflow ${current.id} was changed at ${current.updated_at.toISOString()}, after the version you edited (${expectedUpdatedAt}): reload it`,
        'workflow_changed',
      );
    }
    const d = await checked(tx, current.account_id, body);
    const sameSchedule = d.schedule === current.schedule && d.schedule_timezone === current.schedule_timezone;
    // An unchanged schedule keeps its due time (a tick about to fire is not skipped).
    await updateWorkflow(tx, current.account_id, current.id, fieldsOf(d, sameSchedule ? current.schedule_next_at : nextAt(d)));
    await recordAudit(tx, {
      accountId: current.account_id,
      actor,
      action: 'workflow.updated',
      objectKind: 'workflow',
      objectId: current.id,
      detail: { name: d.name, blocks: d.blocks.length, edges: d.edges.length },
    });
    return reread(tx, current.account_id, current.id);
  });
}

/** Draft, active or paused: any move is allowed. Audited as workflow.status_changed {from, to}. */
export async function setWorkflowStatus(db: Db, w: WorkflowRef, status: WorkflowStatus, actor: Actor): Promise<WorkflowEditRow> {
  return db.transaction(async (tx) => {
    const current = await requireWorkflow(tx, w, true);
    // Already in that status: nothing changes, so nothing is recorded.
    if (current.status === status) return current;
    await updateWorkflowStatus(tx, current.account_id, current.id, status);
    await recordAudit(tx, {
      accountId: current.account_id,
      actor,
      action: 'workflow.status_changed',
      objectKind: 'workflow',
      objectId: current.id,
      detail: { from: current.status, to: status },
    });
    return reread(tx, current.account_id, current.id);
  });
}

/**
 * Sets the cron schedule (null: none) and its time zone (left out: the current one), refused
 * with the definition's own words and path (`schedule`). Audited as workflow.schedule_changed.
 */
export async function setWorkflowSchedule(
  db: Db,
  w: WorkflowRef,
  s: { schedule: string | null; timezone?: string },
  actor: Actor,
): Promise<WorkflowEditRow> {
  return db.transaction(async (tx) => {
    const current = await requireWorkflow(tx, w, true);
    const timezone = s.timezone ?? current.schedule_timezone;
    if (s.schedule !== null) {
      const problem = s.schedule.trim() === '' ? 'must not be empty' : scheduleProblem(s.schedule, timezone);
      if (problem) throw new DefinitionError('schedule', problem);
    }
    const next = { schedule: s.schedule, schedule_timezone: timezone };
    await updateWorkflowSchedule(tx, current.account_id, current.id, { schedule: s.schedule, scheduleTimezone: timezone, scheduleNextAt: nextAt(next) });
    await recordAudit(tx, {
      accountId: current.account_id,
      actor,
      action: 'workflow.schedule_changed',
      objectKind: 'workflow',
      objectId: current.id,
      detail: { from: current.schedule, to: s.schedule, timezone },
    });
    return reread(tx, current.account_id, current.id);
  });
}

/**
 * A copy named "Copy of <name>", a draft, without a schedule (a copy that fired on its original's
 * schedule would run everything twice). Audited as workflow.created with copied_from.
 */
export async function copyWorkflow(db: Db, w: WorkflowRef, actor: Actor): Promise<WorkflowEditRow> {
  return db.transaction(async (tx) => {
    const current = await requireWorkflow(tx, w);
    const d: WorkflowDefinition = { ...exportDefinition(current), name: `Copy of ${current.name}`, status: 'draft', schedule: null };
    const id = uuidv7();
    await insertOne(tx, current.account_id, id, d);
    await recordAudit(tx, {
      accountId: current.account_id,
      actor,
      action: 'workflow.created',
      objectKind: 'workflow',
      objectId: id,
      detail: { name: d.name, copied_from: current.id },
    });
    return reread(tx, current.account_id, id);
  });
}

/**
 * Soft delete: gone from every list and GET, cannot be started, its schedule stops; its runs stay
 * readable and a run in flight finishes on its own copy of the blocks. Audited as workflow.deleted.
 */
export async function deleteWorkflow(db: Db, w: WorkflowRef, actor: Actor): Promise<{ id: string; accountId: string }> {
  return db.transaction(async (tx) => {
    const current = await requireWorkflow(tx, w, true);
    await markWorkflowDeleted(tx, current.account_id, current.id);
    await recordAudit(tx, {
      accountId: current.account_id,
      actor,
      action: 'workflow.deleted',
      objectKind: 'workflow',
      objectId: current.id,
      detail: { name: current.name },
    });
    return { id: current.id, accountId: current.account_id };
  });
}

/** A live workflow as the builder edits it. */
export async function getWorkflowForEdit(db: Queryable, w: WorkflowRef): Promise<WorkflowEditRow> {
  return requireWorkflow(db, w);
}

/** The definition a file of `workflows create` takes back unchanged. */
export async function exportWorkflow(db: Queryable, w: WorkflowRef): Promise<WorkflowDefinition> {
  return exportDefinition(await requireWorkflow(db, w));
}
