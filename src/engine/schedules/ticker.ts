// Starts the runs of workflows whose schedule is due (trigger `schedule`), and of schedule-triggered
// automations (src/engine/automations/schedule.ts). Occurrences missed
// while no process was running are not replayed one by one: a late tick starts one run and moves
// the schedule to its next future occurrence. Schedule runs never count toward the API limits.
// An account that is not active (suspended, lapsed, closed) has its due ticks skipped: the
// schedule moves on without a run, so nothing piles up to fire when it is active again.
import type { Db } from '../../db/db.js';
import { enqueueWorkflowRun } from '../../queue/enqueue.js';
import { tickAutomationSchedules } from '../automations/schedule.js';
import { nextOccurrence } from './cron.js';
import { claimDueSchedule, setNextAt } from './store.js';

/** Starts every due scheduled run (one transaction each); returns how many started. */
export async function tickSchedules(db: Db, startDelayMs: number, max = 100): Promise<number> {
  let started = 0;
  for (let i = 0; i < max; i++) {
    const did = await db.transaction(async (tx) => {
      const due = await claimDueSchedule(tx);
      if (!due) return null;
      const fire = due.account_may_work && due.active;
      if (fire) {
        await enqueueWorkflowRun(tx, { accountId: due.account_id, workflowId: due.id, trigger: 'schedule', keyId: null, startDelayMs });
      }
      const now = new Date();
      const from = due.schedule_next_at > now ? due.schedule_next_at : now;
      await setNextAt(tx, due.account_id, due.id, nextOccurrence(due.schedule, due.schedule_timezone, from));
      return fire ? 'started' : 'skipped';
    });
    if (did === null) break;
    if (did === 'started') started++;
  }
  return started;
}

/** Runs tickSchedules every `everyMs` until stopped. */
export class ScheduleTicker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly startDelayMs: number,
    private readonly everyMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.running = Promise.all([
        tickSchedules(this.db, this.startDelayMs).catch(this.onError),
        tickAutomationSchedules(this.db).catch(this.onError),
      ]);
    }, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
