// Schedule-triggered automations: the published version's trigger `{type: "schedule", config:
// {cron, timezone?}}` starts one run with no contact each time it fires (its contact steps skip).
// A schedule seen for the first time is only planned (it fires at its next occurrence, not at once);
// occurrences missed while nothing ran are not replayed one by one. An account that is not active
// has its due ticks skipped (the schedule moves on, no run), as workflow schedules do.
import type { Db } from '../../db/db.js';
import { cronProblem, nextOccurrence } from '../schedules/cron.js';
import { claimDueAutomationSchedule, setAutomationNextAt } from './trigger-store.js';
import { startTriggeredRun } from './triggers.js';

const RETRY_BAD_SCHEDULE_MS = 24 * 3600_000;

export async function tickAutomationSchedules(db: Db, max = 100): Promise<number> {
  let started = 0;
  for (let i = 0; i < max; i++) {
    const did = await db.transaction(async (tx) => {
      const due = await claimDueAutomationSchedule(tx);
      if (!due) return null;
      const tz = due.timezone ?? 'UTC';
      const problem = due.cron ? cronProblem(due.cron, tz) : 'the schedule trigger has no cron';
      if (problem) {
        // Not fixable here (the hub edits automations): look again in a day rather than every tick.
        await setAutomationNextAt(tx, due.account_id, due.id, new Date(Date.now() + RETRY_BAD_SCHEDULE_MS));
        return 'planned';
      }
      const now = new Date();
      if (due.schedule_next_at === null) {
        await setAutomationNextAt(tx, due.account_id, due.id, nextOccurrence(due.cron!, tz, now));
        return 'planned';
      }
      const fire = due.account_may_work;
      if (fire) await startTriggeredRun(tx, { accountId: due.account_id, automationId: due.id, contactId: null, startedBy: 'Schedule' });
      await setAutomationNextAt(tx, due.account_id, due.id, nextOccurrence(due.cron!, tz, due.schedule_next_at > now ? due.schedule_next_at : now));
      return fire ? 'started' : 'skipped';
    });
    if (did === null) break;
    if (did === 'started') started++;
  }
  return started;
}
