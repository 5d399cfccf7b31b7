// Automation runs, write side shared by the operator's stop (CLI, hub) and a contact's erasure.
import type { Queryable } from '../../db/db.js';
import { sqlList } from '../../db/sql-list.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES, UNFINISHED_AUTOMATION_STEP_STATUSES, type AutomationRunStatus } from '../../domain/automation.js';

const ACTIVE = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);
const UNFINISHED_STEP = sqlList(UNFINISHED_AUTOMATION_STEP_STATUSES);

/**
 * Stops a running or waiting run. The status is re-checked in the UPDATE, so a run that finished
 * since it was read is left alone (false). Its unfinished step (a wait, or a step in flight) ends
 * `skipped` with the same reason, so the step list never shows a step still waiting on a run that
 * has ended.
 */
export async function stopAutomationRun(tx: Queryable, accountId: string, id: string, reason: string): Promise<boolean> {
  const rows = await tx.query(
    `update automation_runs
        set status = 'stopped', error = $3, finished_at = now(), next_at = null
      where account_id = $1 and id = $2 and status in (${ACTIVE})
      returning id`,
    [accountId, id, reason],
  );
  if (!rows.length) return false;
  await tx.query(
    `update automation_run_steps
        set status = 'skipped', error = $3, finished_at = now(),
            ms = case when started_at is null then ms
                      else greatest(0, floor(extract(epoch from (now() - started_at)) * 1000))::int end
      where account_id = $1 and run_id = $2 and status in (${UNFINISHED_STEP})`,
    [accountId, id, reason],
  );
  return true;
}

/** The error a run stopped by `switchboard automation-runs stop` carries. */
export const STOPPED_BY_OPERATOR = 'Stopped by an operator';

export interface RunForStop {
  id: string;
  account_id: string;
  status: AutomationRunStatus;
}

/** A run by id across accounts (operator commands), optionally narrowed to one account. */
export async function findAutomationRun(db: Queryable, id: string, accountId: string | null): Promise<RunForStop | null> {
  const rows = await db.query<RunForStop>(
    `select id, account_id, status from automation_runs where id = $1 and ($2::uuid is null or account_id = $2::uuid)`,
    [id, accountId],
  );
  return rows[0] ?? null;
}
