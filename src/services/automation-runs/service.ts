// Stopping a contact's automation run, as the operator's `automation-runs stop` and the hub do it:
// only a running or waiting run stops (the UPDATE re-checks, so a run that finished since it was
// read is refused, never overwritten); the stop and its audit entry share one transaction.
import type { Db } from '../../db/db.js';
import type { AutomationRunStatus } from '../../domain/automation.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { missing, Refusal } from '../refusal.js';
import { findAutomationRun, stopAutomationRun, type RunForStop } from './store.js';

/** The error a run stopped from the hub carries. */
export const STOPPED_IN_HUB = 'Stopped in the hub';

/** Stops the run with `reason` as its error; a Refusal when it is unknown or already final. */
export async function stopRun(db: Db, runId: string, accountId: string | null, reason: string, actor: Actor): Promise<RunForStop> {
  const find = async (): Promise<RunForStop> => {
    const r = await findAutomationRun(db, runId, accountId);
    if (!r) throw missing('automation run', accountId ? `no automation run ${runId} in account ${accountId}` : `no automation run ${runId}`);
    return r;
  };
  const found = await find();
  const stopped = await db.transaction(async (tx) => {
    if (!(await stopAutomationRun(tx, found.account_id, found.id, reason))) return false;
    await recordAudit(tx, { accountId: found.account_id, actor, action: 'automation_run.stopped', objectKind: 'automation_run', objectId: found.id });
    return true;
  });
  if (stopped) return found;
  const now: { status: AutomationRunStatus } = await find();
  throw new Refusal(`automation run ${found.id} is ${now.status}: only a running or waiting run can be stopped`, 'automation_run_not_active');
}
