// Creating a work item: the one statement that gives an item its number and writes it, shared by
// the hub's service (services/workmgmt/items.ts, which checks the fields first) and the engine's
// task.create step. It stands at the engine's layer because the engine may not import services/,
// while services/ may import the engine: one statement, so one numbering rule for both.
import type { Queryable } from '../db/db.js';
import type { WmStatus, WmType } from '../domain/work-item.js';
import { uuidv7 } from '../lib/ids.js';
import { rankBetween } from '../lib/rank.js';

export interface NewWorkItem {
  accountId: string;
  projectId: string;
  type: WmType;
  title: string;
  description: string;
  status: WmStatus;
  sprintId: string | null;
  epicNumber: number | null;
  labels: string[];
  assignee: string | null;
  startDate: string | null;
  dueDate: string | null;
  points: number | null;
  linkedDocuments: string[];
}

export interface CreatedWorkItem {
  id: string;
  number: number;
  prefix: string;
}

/** A task as the automation step makes it: a title and a description, everything else unset. */
export function taskOf(accountId: string, projectId: string, title: string, description: string): NewWorkItem {
  return {
    accountId, projectId, type: 'task', title, description, status: 'todo', sprintId: null, epicNumber: null,
    labels: [], assignee: null, startDate: null, dueDate: null, points: null, linkedDocuments: [],
  };
}

/**
 * Takes the project's next number and inserts the item in one statement: the counter's row lock
 * (held to the end of the transaction) orders concurrent creates, and a rollback gives the number
 * back with the item, so numbers are never duplicated, never reused and leave no gap. Null when
 * the project is not the account's or never opened work management (nothing is written).
 * The item then goes to the end of the backlog: a rank after the project's last one, read by a
 * statement of its own once the project's row lock is held (one statement's snapshot would not
 * see a rank committed while it waited for the lock), so two creates never share a rank.
 */
export async function insertWorkItem(tx: Queryable, w: NewWorkItem): Promise<CreatedWorkItem | null> {
  const rows = await tx.query<CreatedWorkItem>(
    `with n as (
       update projects set wm_next_number = wm_next_number + 1
        where account_id = $1 and id = $2 and wm_prefix is not null
        returning wm_next_number - 1 as number, wm_prefix as prefix
     ), i as (
       insert into wm_items (account_id, id, project_id, number, type, title, description, status, sprint_id, epic_number,
                             labels, assignee, start_date, due_date, points, linked_documents)
       select $1, $3, $2, n.number, $4, $5, $6, $7, $8, $9, $10, $11, $12::date, $13::date, $14, $15 from n
       returning id, number
     )
     select i.id, i.number, n.prefix from i cross join n`,
    [w.accountId, w.projectId, uuidv7(), w.type, w.title, w.description, w.status, w.sprintId, w.epicNumber,
      w.labels, w.assignee, w.startDate, w.dueDate, w.points, w.linkedDocuments],
  );
  const created = rows[0];
  if (created === undefined) return null;
  const [last] = await tx.query<{ rank: string | null }>(
    'select max(rank) as rank from wm_items where account_id = $1 and project_id = $2 and id <> $3',
    [w.accountId, w.projectId, created.id],
  );
  await tx.query('update wm_items set rank = $3 where account_id = $1 and id = $2', [w.accountId, created.id, rankBetween(last?.rank ?? null, null)]);
  return created;
}
