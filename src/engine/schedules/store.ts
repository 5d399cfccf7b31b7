// Scheduled runs: SQL. A due workflow is claimed under a row lock that other tickers skip.
import type { Queryable } from '../../db/db.js';

export interface DueSchedule {
  account_id: string;
  id: string;
  schedule: string;
  schedule_timezone: string;
  schedule_next_at: Date;
}

/** The next due workflow, locked for this transaction; null when none is due. */
export async function claimDueSchedule(tx: Queryable): Promise<DueSchedule | null> {
  const rows = await tx.query<DueSchedule>(
    `select account_id, id, schedule, schedule_timezone, schedule_next_at from workflows
      where schedule_next_at is not null and schedule_next_at <= now() and schedule is not null
      order by schedule_next_at limit 1 for update skip locked`,
  );
  return rows[0] ?? null;
}

/** Moves the schedule on; null stops it (an expression that never fires again). */
export async function setNextAt(tx: Queryable, accountId: string, workflowId: string, next: Date | null): Promise<void> {
  await tx.query(`update workflows set schedule_next_at = $3 where account_id = $1 and id = $2`, [accountId, workflowId, next]);
}
