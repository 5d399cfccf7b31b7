// Automation runs, write side shared by the operator's stop (CLI, hub) and a contact's erasure.
import type { Queryable } from '../../db/db.js';

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
      where account_id = $1 and id = $2 and status in ('running', 'waiting')
      returning id`,
    [accountId, id, reason],
  );
  if (!rows.length) return false;
  await tx.query(
    `update automation_run_steps
        set status = 'skipped', error = $3, finished_at = now(),
            ms = case when started_at is null then ms
                      else greatest(0, floor(extract(epoch from (now() - started_at)) * 1000))::int end
      where account_id = $1 and run_id = $2 and status in ('running', 'waiting')`,
    [accountId, id, reason],
  );
  return true;
}
