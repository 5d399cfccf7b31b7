// Sprints written from the hub: their insert, their plan (name, goal, dates) and their state with
// the review. Reads stay in read-store.ts (wm_sprints' one read home); the items a finish moves
// are write-store.ts's (moveItemsToSprint). Every statement filters by account_id; the service
// holds the project's row lock while it changes a sprint's state (sprints.ts says why).
import type { Queryable } from '../../db/db.js';
import type { SprintState } from '../../domain/work-item.js';
import { uuidv7 } from '../../lib/ids.js';

/** A sprint's plan as the service hands it over (dates as YYYY-MM-DD). */
export interface SprintPlan {
  name: string;
  goal: string;
  start_date: string | null;
  end_date: string | null;
}

/** A new planned sprint in the project; its id. */
export async function insertSprint(tx: Queryable, accountId: string, projectId: string, p: SprintPlan): Promise<string> {
  const id = uuidv7();
  await tx.query(
    `insert into wm_sprints (account_id, id, project_id, name, goal, state, start_date, end_date)
     values ($1, $2, $3, $4, $5, 'planned', $6::date, $7::date)`,
    [accountId, id, projectId, p.name, p.goal, p.start_date, p.end_date],
  );
  return id;
}

export async function updateSprintPlan(tx: Queryable, accountId: string, sprintId: string, p: SprintPlan): Promise<void> {
  await tx.query(
    `update wm_sprints set name = $3, goal = $4, start_date = $5::date, end_date = $6::date
      where account_id = $1 and id = $2`,
    [accountId, sprintId, p.name, p.goal, p.start_date, p.end_date],
  );
}

/**
 * Moves the sprint from `from` to `to` (and sets its review when given). False when it was no
 * longer in `from`: the caller's check and this write agree, or nothing is written.
 */
export async function setSprintState(
  tx: Queryable,
  accountId: string,
  sprintId: string,
  from: SprintState,
  to: SprintState,
  review: Record<string, unknown> | null = null,
): Promise<boolean> {
  const rows = await tx.query(
    `update wm_sprints set state = $4, review = coalesce($5::jsonb, review)
      where account_id = $1 and id = $2 and state = $3
      returning 1`,
    [accountId, sprintId, from, to, review === null ? null : JSON.stringify(review)],
  );
  return rows.length > 0;
}
