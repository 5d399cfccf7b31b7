// A worker's hold on one claimed automation run: the same heartbeat as scheduler/lease.ts (renew
// every leaseMs/3; a renewal that finds the run gone loses the lease, aborts `signal`, and the
// executor writes nothing more), over the automation_runs table.
import type { Queryable } from '../../db/db.js';
import { LeaseLost } from '../scheduler/lease.js';
import type { EngineLog } from '../scheduler/log.js';
import { renewAutomationLease, type AutomationFence } from './store.js';

export { LeaseLost };

export class AutomationLease {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private beating = false;
  private lostReason: string | null = null;

  constructor(
    readonly fence: AutomationFence,
    private readonly db: Queryable,
    private readonly leaseMs: number,
    private readonly log: EngineLog,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get lost(): boolean {
    return this.lostReason !== null;
  }

  get reason(): string | null {
    return this.lostReason;
  }

  start(): void {
    this.timer = setInterval(() => void this.beat(), Math.max(20, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    if (this.beating || this.lost) return;
    this.beating = true;
    try {
      if (!(await renewAutomationLease(this.db, this.fence, this.leaseMs))) {
        this.lose('the lease was lost (taken over by another worker, or the run was stopped)');
      }
    } catch (err) {
      this.log.warn({ err, runId: this.fence.runId }, 'automation lease renewal failed');
    } finally {
      this.beating = false;
    }
  }

  lose(reason: string): void {
    if (this.lost) return;
    this.lostReason = reason;
    this.stop();
    this.controller.abort(new LeaseLost(reason));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
