// A worker's hold on one item claimed from a leased queue (queue.ts: a workflow run, an
// automation run): the fence every write carries, and the heartbeat that renews the lease through
// the queue every leaseMs/3 while the run executes. When a renewal finds the run gone
// (lease taken over after it expired, run cancelled, released at shutdown) the lease is lost:
// `signal` aborts so the running block stops, and the executor writes nothing more.
import type { Queryable } from '../db/db.js';
import type { EngineLog } from './log.js';
import type { Fence } from './queue.js';

export class LeaseLost extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'LeaseLost';
  }
}

export class Lease {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private beating = false;
  private lostReason: string | null = null;

  constructor(
    readonly fence: Fence,
    /** The queue's renewal (LeasedQueue.renew). */
    private readonly renew: (db: Queryable, f: Fence, leaseMs: number) => Promise<boolean>,
    private readonly db: Queryable,
    private readonly leaseMs: number,
    private readonly log: EngineLog,
  ) {}

  /** Aborted once the lease is lost; blocks receive it (combined with the time limit). */
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
    // A third of the lease: two renewals may fail (a slow query, a busy event loop) before it lapses.
    this.timer = setInterval(() => void this.beat(), Math.max(20, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  private async beat(): Promise<void> {
    if (this.beating || this.lost) return;
    this.beating = true;
    try {
      if (!(await this.renew(this.db, this.fence, this.leaseMs))) {
        this.lose('the lease was lost (taken over by another worker, or the run was cancelled or stopped)');
      }
    } catch (err) {
      // The store is unreachable: keep trying; once it answers, the fence decides.
      this.log.warn({ err, runId: this.fence.runId }, 'lease renewal failed');
    } finally {
      this.beating = false;
    }
  }

  /** Stops all work on the run: no more writes, and the block's signal aborts. */
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
