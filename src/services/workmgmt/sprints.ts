// Planning sprints from the hub (issue 27; docs/architecture.md §12.10): members create a sprint,
// edit its plan while it is planned, start it and finish it with a review. The moves are the
// domain's machine (src/domain/sprint.ts). Every state move first takes the project's row lock
// (getWmProject with lock), so two starts in one project take turns and the second sees the first's
// active sprint: at most one active sprint per project, also under concurrency on PostgreSQL.
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, found } from '../../domain/errors.js';
import { sprintMove, type SprintAction } from '../../domain/sprint.js';
import { WM_LIMITS } from '../../domain/work-item.js';
import type { Actor } from '../audit/service.js';
import { checkedText, refuse } from './fields.js';
import { actorId, REPLAYABLE } from './items.js';
import { activeSprintId, getSprint, getWmProject, lockSprintItems, type SprintItemRow, type SprintRow, type WmProjectRow } from './read-store.js';
import { insertSprint, setSprintState, updateSprintPlan, type SprintPlan } from './sprint-store.js';
import { moveItemsToSprint } from './write-store.js';

/** A sprint's plan as the hub's body names it; absent: not sent (an edit keeps it). */
export interface SprintInput {
  name?: string;
  goal?: string;
  start_date?: string | null;
  end_date?: string | null;
}

/** Where a finish sends the sprint's unfinished items: a planned sprint of the project, or the backlog. */
export interface FinishInput {
  unfinished_to: 'backlog' | 'sprint';
  sprint_id?: string;
  summary?: string;
}

function checkedPlan(before: SprintPlan, f: SprintInput): SprintPlan {
  const p = { ...before };
  if (f.name !== undefined) p.name = checkedText(f.name, 'name', 'single-line', WM_LIMITS.sprintName, false);
  if (f.goal !== undefined) p.goal = checkedText(f.goal, 'goal', 'multi-line', WM_LIMITS.sprintGoal, true);
  if (f.start_date !== undefined) p.start_date = f.start_date;
  if (f.end_date !== undefined) p.end_date = f.end_date;
  if (p.start_date !== null && p.end_date !== null && p.end_date < p.start_date) {
    throw refuse('end_date', `The end date ${p.end_date} is before the start date ${p.start_date}.`);
  }
  return p;
}

const lockedProject = async (tx: Queryable, accountId: string, projectId: string) =>
  found(await getWmProject(tx, accountId, projectId, true), 'project with work management');

/** The sprint, when `action` is allowed in its state; 409 sprint_state_conflict otherwise. */
async function sprintFor(tx: Queryable, accountId: string, project: WmProjectRow, sprintId: string, action: SprintAction): Promise<SprintRow> {
  const sprint = found(await getSprint(tx, accountId, project.id, sprintId), 'sprint');
  if (sprintMove(sprint.state, action) === null) {
    throw new ApiError('sprint_state_conflict', `Sprint "${sprint.name}" is ${sprint.state}: it cannot ${action === 'edit' ? 'be edited' : action} now.`);
  }
  return sprint;
}

const planOf = (s: SprintRow): SprintPlan => ({ name: s.name, goal: s.goal, start_date: s.start_date, end_date: s.end_date });

export async function createSprint(db: Db, accountId: string, projectId: string, input: SprintInput & { name: string }): Promise<SprintRow> {
  return db.transaction(async (tx) => {
    const project = found(await getWmProject(tx, accountId, projectId), 'project with work management');
    const id = await insertSprint(tx, accountId, project.id, checkedPlan({ name: '', goal: '', start_date: null, end_date: null }, input));
    return found(await getSprint(tx, accountId, project.id, id), 'sprint');
  }, REPLAYABLE);
}

/** Changes the plan of a planned sprint (409 once it started: its plan is then what the team worked to). */
export async function editSprint(db: Db, accountId: string, projectId: string, sprintId: string, input: SprintInput): Promise<SprintRow> {
  return db.transaction(async (tx) => {
    const project = await lockedProject(tx, accountId, projectId);
    const sprint = await sprintFor(tx, accountId, project, sprintId, 'edit');
    await updateSprintPlan(tx, accountId, sprint.id, checkedPlan(planOf(sprint), input));
    return found(await getSprint(tx, accountId, project.id, sprint.id), 'sprint');
  }, REPLAYABLE);
}

/** planned → active; 409 while another sprint of the project is active. */
export async function startSprint(db: Db, accountId: string, projectId: string, sprintId: string): Promise<SprintRow> {
  return db.transaction(async (tx) => {
    const project = await lockedProject(tx, accountId, projectId);
    const sprint = await sprintFor(tx, accountId, project, sprintId, 'start');
    const active = await activeSprintId(tx, accountId, project.id);
    if (active !== null) {
      throw new ApiError('sprint_state_conflict', 'Another sprint of this project is active: finish it before starting this one.', { resourceId: active });
    }
    await setSprintState(tx, accountId, sprint.id, 'planned', 'active');
    return found(await getSprint(tx, accountId, project.id, sprint.id), 'sprint');
  }, REPLAYABLE);
}

const pointsOf = (items: SprintItemRow[]) => items.reduce((sum, i) => sum + (i.points ?? 0), 0);

/**
 * The review /v1 renders as written: done against not done, in items and points as the store's
 * totals count them (an item is done when its status is done; an item without points counts 0),
 * the keys of each side, and where the unfinished items went (null: the backlog).
 */
function reviewOf(prefix: string, items: SprintItemRow[], to: SprintRow | null, summary: string, actor: Actor) {
  const side = (list: SprintItemRow[]) => ({ items: list.length, points: pointsOf(list), keys: list.map((i) => `${prefix}-${i.number}`) });
  return {
    summary,
    done: side(items.filter((i) => i.status === 'done')),
    not_done: side(items.filter((i) => i.status !== 'done')),
    unfinished_to: to === null ? null : { sprint_id: to.id, name: to.name },
    finished_at: new Date().toISOString(),
    finished_by: actorId(actor),
  };
}

/**
 * active → finished with its review; the unfinished items move to the planned sprint chosen, or to
 * the backlog, each with a history row. The finished sprint then keeps only its done items, so
 * /v1's totals read what was delivered, and the review keeps what was not.
 */
export async function finishSprint(db: Db, accountId: string, projectId: string, sprintId: string, input: FinishInput, actor: Actor): Promise<SprintRow> {
  const summary = checkedText(input.summary ?? '', 'summary', 'multi-line', WM_LIMITS.reviewSummary, true);
  return db.transaction(async (tx) => {
    const project = await lockedProject(tx, accountId, projectId);
    const sprint = await sprintFor(tx, accountId, project, sprintId, 'finish');
    const to = input.unfinished_to === 'sprint' ? await nextSprint(tx, accountId, project, input.sprint_id) : null;
    const items = await lockSprintItems(tx, accountId, sprint.id);
    const unfinished = items.filter((i) => i.status !== 'done').map((i) => i.id);
    await moveItemsToSprint(tx, accountId, unfinished, sprint.id, to?.id ?? null, actorId(actor));
    await setSprintState(tx, accountId, sprint.id, 'active', 'finished', reviewOf(project.wm_prefix, items, to, summary, actor));
    return found(await getSprint(tx, accountId, project.id, sprint.id), 'sprint');
  }, REPLAYABLE);
}

/** The planned sprint of the project the unfinished items go to; refused naming sprint_id otherwise. */
async function nextSprint(tx: Queryable, accountId: string, project: WmProjectRow, sprintId: string | undefined): Promise<SprintRow> {
  if (sprintId === undefined) throw new ApiError('missing_field', 'Name the planned sprint the unfinished items go to (sprint_id).', { param: 'sprint_id' });
  const next = await getSprint(tx, accountId, project.id, sprintId);
  if (next === null || next.state !== 'planned') throw refuse('sprint_id', 'The field sprint_id must name a planned sprint of this project.');
  return next;
}
