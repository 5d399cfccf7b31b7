// Wakes an idle worker (the engine, the sender): at once on a notification on its channel
// (channels.ts: a run was queued or approved, a message written; LISTEN on both stores), when the
// worker itself pokes it (a slot came free, a wait or a retry came due), and every
// pollMs as the fallback for notifications lost while a listener reconnects or sent by a release
// that does not notify. A wake-up that comes while the worker is busy is kept, not lost, so the
// next wait() returns at once.
import type { Db } from '../db/db.js';
import type { EngineLog } from './log.js';

export class Waker {
  private pending = false;
  private waiter: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
    private readonly log: EngineLog,
    private readonly channel: string,
  ) {}

  /** Subscribes to the channel. Without it (the store refused LISTEN) polling still works. */
  async start(): Promise<void> {
    try {
      this.unlisten = await this.db.listen(this.channel, () => this.wake());
    } catch (err) {
      this.log.warn({ err }, `could not LISTEN on ${this.channel}; polling every ${this.pollMs} ms instead`);
    }
  }

  wake(): void {
    const w = this.waiter;
    if (w) w();
    else this.pending = true;
  }

  /** Resolves on the next wake-up, after pollMs at the latest, or at once when one is pending. */
  wait(): Promise<void> {
    if (this.pending || this.stopped) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.waiter = () => {
        this.waiter = null;
        if (this.timer) clearTimeout(this.timer);
        this.timer = null;
        resolve();
      };
      this.timer = setTimeout(this.waiter, this.pollMs);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    const u = this.unlisten;
    this.unlisten = null;
    if (u) await u().catch((err: unknown) => this.log.warn({ err }, 'unlisten failed'));
  }
}
