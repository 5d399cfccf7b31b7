// Scheduled runs: SQL. A due workflow is claimed under a row lock that other tickers skip.
import type { Queryable } from '../../db/db.js';
import { accountMayWorkSql } from '../../accounts/activity.js';

export interface DueSchedule {
  account_id: string;
  id: string;
  schedule: string;
  schedule_timezone: string;
  schedule_next_at: Date;
  /** The account may work (src/accounts/activity.ts): otherwise this tick is skipped. */
  account_may_work: boolean;
  /**
   * Only an active workflow runs on its schedule: a draft's or a paused one's due time is moved
   * on without a run, so activating it later starts from the next time, not with a backlog.
   */
  active: boolean;
}

/** The next due workflow, locked for this transaction; null when none is due. */
export async function claimDueSchedule(tx: Queryable): Promise<DueSchedule | null> {
  const rows = await tx.query<DueSchedule>(
    `select w.account_id, w.id, w.schedule, w.schedule_timezone, w.schedule_next_at, w.status = 'active' as active,
            coalesce((select ${accountMayWorkSql('a')} from accounts a where a.id = w.account_id), false) as account_may_work
       from workflows w
      where w.schedule_next_at is not null and w.schedule_next_at <= now() and w.schedule is not null
        and w.deleted_at is null
      order by w.schedule_next_at limit 1 for no key update of w skip locked`,
  );
  return rows[0] ?? null;
}

/** Moves the schedule on; null stops it (an expression that never fires again). */
export async function setNextAt(tx: Queryable, accountId: string, workflowId: string, next: Date | null): Promise<void> {
  await tx.query(`update workflows set schedule_next_at = $3 where account_id = $1 and id = $2`, [accountId, workflowId, next]);
}
