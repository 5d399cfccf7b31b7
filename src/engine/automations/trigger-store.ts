// SQL for trigger-started automation runs and automation schedules (the runs themselves are
// inserted by enqueueAutomationRun, src/queue/enqueue.ts).
import type { Queryable } from '../../db/db.js';
import { accountMayWorkSql } from '../../accounts/activity.js';

/** The Run-only-if filter of the running version (null: no filter). */
export async function publishedFilter(tx: Queryable, accountId: string, automationId: string, version: number): Promise<Record<string, unknown> | null> {
  const rows = await tx.query<{ run_only_if: Record<string, unknown> | null }>(
    `select run_only_if from automation_versions where account_id = $1 and automation_id = $2 and version = $3`,
    [accountId, automationId, version],
  );
  return rows[0]?.run_only_if ?? null;
}

export interface DueAutomationSchedule {
  account_id: string;
  id: string;
  cron: string | null;
  timezone: string | null;
  schedule_next_at: Date | null;
  /** The account may work (src/accounts/activity.ts): otherwise this tick is skipped. */
  account_may_work: boolean;
}

/**
 * The next published schedule-triggered automation that is due (or has no next time yet), locked
 * for this transaction; other tickers skip it.
 */
export async function claimDueAutomationSchedule(tx: Queryable): Promise<DueAutomationSchedule | null> {
  const rows = await tx.query<DueAutomationSchedule>(
    `select a.account_id, a.id, v.trigger->'config'->>'cron' as cron, v.trigger->'config'->>'timezone' as timezone, a.schedule_next_at,
            coalesce((select ${accountMayWorkSql('ac')} from accounts ac where ac.id = a.account_id), false) as account_may_work
       from automations a
       join automation_versions v on v.account_id = a.account_id and v.automation_id = a.id and v.version = a.published_version
      where a.status = 'published' and a.deleted_at is null and v.trigger->>'type' = 'schedule'
        and (a.schedule_next_at is null or a.schedule_next_at <= now())
      order by a.schedule_next_at nulls first
      limit 1
      for no key update of a skip locked`,
  );
  return rows[0] ?? null;
}

export async function setAutomationNextAt(tx: Queryable, accountId: string, id: string, next: Date | null): Promise<void> {
  await tx.query(`update automations set schedule_next_at = $3 where account_id = $1 and id = $2`, [accountId, id, next]);
}

/** Published automations whose running version has this trigger type, in id order. */
export async function contactCreatedAutomations(tx: Queryable, accountId: string, type: string): Promise<Array<{ id: string; label: string }>> {
  return tx.query<{ id: string; label: string }>(
    `select a.id, coalesce(v.trigger->>'label', '') as label
       from automations a
       join automation_versions v on v.account_id = a.account_id and v.automation_id = a.id and v.version = a.published_version
      where a.account_id = $1 and a.status = 'published' and a.deleted_at is null and v.trigger->>'type' = $2
      order by a.id`,
    [accountId, type],
  );
}
