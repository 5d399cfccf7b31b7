// An item's fields as a person sends them, checked and turned into columns: the text rules of
// src/lib/text.ts, and every reference inside the account and the project (an assignee of the
// account, an epic, a sprint and pages of this project). Each refusal names its field (param).
// Also what one history row shows of each field, so a change is recorded as /v1 reads it.
import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../domain/errors.js';
import { ownsPrefix, parseKey, WM_EDITABLE_FIELDS, WM_LIMITS, type WmEditableField, type WmStatus, type WmType } from '../../domain/work-item.js';
import { textProblem, type TextKind } from '../../lib/text.js';
import { getItem } from '../items/read-store.js';
import { userById } from '../users/store.js';
import { getWmItem, sprintInProject, type WmProjectRow } from './read-store.js';
import type { ChangeEntry, ItemColumns } from './write-store.js';

/** The fields of a create or an edit, as the hub's body names them; absent: not sent. */
export interface ItemInput {
  type?: WmType;
  title?: string;
  description?: string;
  status?: WmStatus;
  assignee?: string | null;
  labels?: string[];
  start_date?: string | null;
  due_date?: string | null;
  epic_key?: string | null;
  sprint_id?: string | null;
  linked_documents?: string[];
  points?: number | null;
}

/** 422 invalid_field naming the field: how every work-management refusal of a value reads. */
export const refuse = (param: string, message: string) => new ApiError('invalid_field', message, { param });

/** Text held to the house rules: one line or several, within a length; `blank` whether '' may stand. */
export function checkedText(raw: string, param: string, kind: TextKind, max: number, blank: boolean): string {
  const text = kind === 'single-line' ? raw.trim() : raw;
  if (!blank && text.trim() === '') throw refuse(param, `The field ${param} must not be blank.`);
  const problem = textProblem(text, kind);
  if (problem !== null) throw refuse(param, `The field ${param} ${problem}.`);
  if (text.length > max) throw refuse(param, `The field ${param} must be at most ${max} characters (it has ${text.length}).`);
  return text;
}

function checkedLabels(raw: string[]): string[] {
  const labels = [...new Set(raw.map((l) => checkedText(l, 'labels', 'single-line', WM_LIMITS.label, false)))];
  if (labels.length > WM_LIMITS.labels) throw refuse('labels', `An item carries at most ${WM_LIMITS.labels} labels.`);
  return labels;
}

async function checkedAssignee(db: Queryable, accountId: string, id: string | null): Promise<string | null> {
  if (id === null || (await userById(db, accountId, id))) return id;
  throw refuse('assignee', 'The field assignee must be a user of this account.');
}

async function checkedEpic(db: Queryable, accountId: string, project: WmProjectRow, key: string | null): Promise<number | null> {
  if (key === null) return null;
  const parsed = parseKey(key);
  const epic = parsed && ownsPrefix(project, parsed.prefix) ? await getWmItem(db, accountId, project.id, parsed.number) : null;
  if (!epic) throw refuse('epic_key', `The field epic_key names no item of this project (${key}).`);
  if (epic.type !== 'epic') throw refuse('epic_key', `${key} is not an epic (its type is ${epic.type}).`);
  return epic.number;
}

async function checkedSprint(db: Queryable, accountId: string, projectId: string, id: string | null): Promise<string | null> {
  if (id === null || (await sprintInProject(db, accountId, projectId, id))) return id;
  throw refuse('sprint_id', 'The field sprint_id must be a sprint of this project.');
}

async function checkedDocuments(db: Queryable, accountId: string, projectId: string, raw: string[]): Promise<string[]> {
  const ids = [...new Set(raw.map((id) => id.toLowerCase()))];
  if (ids.length > WM_LIMITS.linkedDocuments) throw refuse('linked_documents', `An item links at most ${WM_LIMITS.linkedDocuments} documents.`);
  for (const id of ids) {
    const doc = await getItem(db, accountId, id);
    if (!doc || doc.project_id !== projectId || doc.kind !== 'page') {
      throw refuse('linked_documents', `The field linked_documents must name pages of this project (${id} is not one).`);
    }
  }
  return ids;
}

/** The columns the sent fields set, each checked; fields not sent are absent. */
export async function checkedColumns(db: Queryable, accountId: string, project: WmProjectRow, f: ItemInput): Promise<Partial<ItemColumns>> {
  const c: Partial<ItemColumns> = {};
  if (f.type !== undefined) c.type = f.type;
  if (f.title !== undefined) c.title = checkedText(f.title, 'title', 'single-line', WM_LIMITS.title, false);
  if (f.description !== undefined) c.description = checkedText(f.description, 'description', 'multi-line', WM_LIMITS.description, true);
  if (f.status !== undefined) c.status = f.status;
  if (f.labels !== undefined) c.labels = checkedLabels(f.labels);
  if (f.start_date !== undefined) c.start_date = f.start_date;
  if (f.due_date !== undefined) c.due_date = f.due_date;
  if (f.points !== undefined) c.points = f.points;
  if (f.assignee !== undefined) c.assignee = await checkedAssignee(db, accountId, f.assignee);
  if (f.epic_key !== undefined) c.epic_number = await checkedEpic(db, accountId, project, f.epic_key);
  if (f.sprint_id !== undefined) c.sprint_id = await checkedSprint(db, accountId, project.id, f.sprint_id);
  if (f.linked_documents !== undefined) c.linked_documents = await checkedDocuments(db, accountId, project.id, f.linked_documents);
  return c;
}

/**
 * The rules between fields, on the item as it would be: dates in order, an epic in no epic, and
 * (`hasChildren`) an epic that items belong to stays an epic.
 */
export function checkWhole(c: ItemColumns, hasChildren: boolean): void {
  if (c.start_date !== null && c.due_date !== null && c.due_date < c.start_date) {
    throw refuse('due_date', `The due date ${c.due_date} is before the start date ${c.start_date}.`);
  }
  if (c.type === 'epic' && c.epic_number !== null) throw refuse('epic_key', 'An epic cannot belong to another epic.');
  if (c.type !== 'epic' && hasChildren) throw refuse('type', 'Items belong to this epic: move them out of it before changing its type.');
}

/** The columns of a new item: what was sent over the defaults. */
export function newColumns(sent: Partial<ItemColumns>): ItemColumns {
  return {
    type: 'task', title: '', description: '', status: 'todo', sprint_id: null, epic_number: null, labels: [],
    assignee: null, start_date: null, due_date: null, points: null, linked_documents: [], ...sent,
  };
}

const list = (v: string[]) => (v.length === 0 ? null : v.join(', '));

/** What a history row shows of each field: text as /v1 reads it (an epic by its key, people and sprints by id). */
const SHOWN: Record<WmEditableField, (c: ItemColumns, prefix: string) => string | null> = {
  type: (c) => c.type,
  title: (c) => c.title,
  description: (c) => c.description,
  status: (c) => c.status,
  assignee: (c) => c.assignee,
  labels: (c) => list(c.labels),
  start_date: (c) => c.start_date,
  due_date: (c) => c.due_date,
  epic: (c, prefix) => (c.epic_number === null ? null : `${prefix}-${c.epic_number}`),
  sprint: (c) => c.sprint_id,
  linked_documents: (c) => list(c.linked_documents),
  points: (c) => (c.points === null ? null : String(c.points)),
};

/** One change a field that differs, in the fields' declared order. */
export function changesBetween(before: ItemColumns, after: ItemColumns, prefix: string): ChangeEntry[] {
  return WM_EDITABLE_FIELDS.flatMap((field) => {
    const [from, to] = [SHOWN[field](before, prefix), SHOWN[field](after, prefix)];
    return from === to ? [] : [{ field, from, to }];
  });
}
