// A shared rate-limit store (Redis, PostgreSQL) is a dependency that can fail. FallbackCounter
// wraps one: a hit the store has not answered within the timeout (or answered with an error) is
// answered from this process's own count instead, so a down or slow store never fails a request
// and never makes it wait longer than the timeout. Each process then enforces the full limit on
// its own until the store answers again.
//
// Counting: every hit is counted in the process's own MemoryCounter (a Map update, so a fallback
// mid-window continues from this process's own traffic instead of starting at zero) and sent to
// the shared store while the store is healthy. A late answer (after the fallback answered) is
// discarded: the request has been answered already. Its increment stays in the shared store, where
// it belongs, since the request did happen; no count ever counts one request twice.
//
// While degraded, hits are answered at once from the own count, and at most one probe at a time
// (at most one per probeEveryMs) goes to the shared store; a probe answered within the timeout
// makes the store healthy again. Nothing else is sent to a store that is not answering, so nothing
// piles up in its client.
//
// Timeouts use one timer for all the hits in flight (their deadlines come in order, as all use
// the same timeout), not one timer per request: this runs on every /v1 request.
import { MemoryCounter, type Hit, type PeekableCounter, type WindowCounter } from './window-counter.js';

export interface CounterLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface FallbackOptions {
  /** The store's name for logs ("redis", "postgres"). */
  store: string;
  /** A hit the store has not answered within this is answered from the process's own count. */
  timeoutMs: number;
  log: CounterLog;
  /** While degraded, the store is tried again at most this often (default 1 s). */
  probeEveryMs?: number;
  /** Warnings (and recovery notes) are logged at most this often (default a minute). */
  logEveryMs?: number;
  now?: () => number;
}

/** A hit waiting for the shared store's answer. */
interface Pending {
  deadline: number;
  done: boolean;
  /** What a fallback answers with: the process's own count, taken when the hit came in. */
  own: Hit;
  resolve: (h: Hit) => void;
}

export class FallbackCounter implements PeekableCounter {
  private readonly own: MemoryCounter;
  private readonly now: () => number;
  private readonly probeEveryMs: number;
  private readonly logEveryMs: number;
  private degraded = false;
  // Hits in flight, oldest first; `head` is the first not yet removed.
  private queue: Pending[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private probe = 0; // id of the probe in flight; 0 = none
  private probeSeq = 0;
  private probeStartedAt = 0;
  private nextProbeAt = 0;
  private lastWarnAt = -Infinity;
  private lastInfoAt = -Infinity;
  private closed = false;

  constructor(
    private readonly shared: WindowCounter,
    private readonly opts: FallbackOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.own = new MemoryCounter(this.now);
    this.probeEveryMs = opts.probeEveryMs ?? 1_000;
    this.logEveryMs = opts.logEveryMs ?? 60_000;
  }

  /** 'degraded' while hits are answered from the process's own count. May start a probe. */
  health(): 'ok' | 'degraded' {
    if (this.degraded) this.maybeProbe('health');
    return this.degraded ? 'degraded' : 'ok';
  }

  hit(key: string): Promise<Hit> {
    const own = this.own.count(key);
    if (this.degraded || this.closed) {
      this.maybeProbe(key);
      return Promise.resolve(own);
    }
    return new Promise<Hit>((resolve) => {
      const p: Pending = { deadline: this.now() + this.opts.timeoutMs, done: false, own, resolve };
      this.queue.push(p);
      if (!this.timer) this.arm(this.opts.timeoutMs);
      this.shared.hit(key).then(
        (h) => this.answered(p, h),
        (err) => this.failed(p, err),
      );
    });
  }

  private answered(p: Pending, h: Hit): void {
    if (p.done) return; // late: answered from the own count already
    p.done = true;
    p.resolve(h);
    this.dropDone();
  }

  private failed(p: Pending, err: unknown): void {
    // A late failure was already counted as a timeout (and the store may have recovered since).
    if (p.done) return;
    p.done = true;
    p.resolve(p.own);
    this.dropDone();
    this.degrade(errorText(err));
  }

  /** Drops answered hits from the front of the queue, so it stays short while the store is fast. */
  private dropDone(): void {
    const q = this.queue;
    while (this.head < q.length && q[this.head].done) this.head++;
    if (this.head === q.length) {
      q.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > q.length) {
      this.queue = q.slice(this.head);
      this.head = 0;
    }
  }

  private arm(ms: number): void {
    // Expiry waits for the event loop's next check phase, after the poll phase: when the loop was
    // blocked past a deadline (a long task, a GC pause), answers that arrived meanwhile are read
    // first instead of being taken for a store that did not answer.
    this.timer = setTimeout(() => setImmediate(() => this.expire()), Math.max(1, ms));
    this.timer.unref();
  }

  /** The one timer: answers every hit past its deadline from the own count. */
  private expire(): void {
    if (this.closed) return;
    this.timer = null;
    const t = this.now();
    const q = this.queue;
    let late = false;
    while (this.head < q.length) {
      const p = q[this.head];
      if (!p.done) {
        if (p.deadline > t) break;
        p.done = true;
        p.resolve(p.own);
        late = true;
      }
      this.head++;
    }
    this.dropDone();
    if (late) this.degrade(`no answer within ${this.opts.timeoutMs} ms`);
    if (this.head < this.queue.length) this.arm(this.queue[this.head].deadline - t);
  }

  private degrade(reason: string): void {
    const t = this.now();
    if (!this.degraded) {
      this.degraded = true;
      this.nextProbeAt = t + this.probeEveryMs;
    }
    if (t - this.lastWarnAt >= this.logEveryMs) {
      this.lastWarnAt = t;
      this.opts.log.warn(
        { rate_limit_store: this.opts.store, reason, timeout_ms: this.opts.timeoutMs },
        'the shared rate-limit store is not answering: each process counts its own requests (the full limit per process) until it answers again',
      );
    }
  }

  /** While degraded: one hit at a time, at most once per probeEveryMs, goes to the store as a probe. */
  private maybeProbe(key: string): void {
    const t = this.now();
    // A probe the store never settles (it should: its client has timeouts) is given up after a while.
    const stuck = this.probe !== 0 && t - this.probeStartedAt > Math.max(30_000, 10 * this.opts.timeoutMs);
    if (this.closed || (this.probe !== 0 && !stuck) || t < this.nextProbeAt) return;
    const id = ++this.probeSeq;
    this.probe = id;
    this.probeStartedAt = t;
    this.nextProbeAt = t + this.probeEveryMs;
    this.shared.hit(key).then(
      () => {
        if (this.probe !== id) return;
        this.probe = 0;
        // Answered, but too late to be used: still degraded (a store that is slow, not down).
        const took = this.now() - t;
        if (took > this.opts.timeoutMs) return this.degrade(`answered in ${took} ms`);
        this.recover();
      },
      (err) => {
        if (this.probe !== id) return;
        this.probe = 0;
        this.degrade(errorText(err)); // logs again if a minute has passed
      },
    );
  }

  private recover(): void {
    if (!this.degraded) return;
    this.degraded = false;
    const t = this.now();
    if (t - this.lastInfoAt >= this.logEveryMs) {
      this.lastInfoAt = t;
      this.opts.log.info({ rate_limit_store: this.opts.store }, 'the shared rate-limit store answers again: counts are shared again');
    }
  }

  /**
   * A key's count without adding to it (the sign-in throttle reads its failure counts before it
   * checks a password): the shared store's, or this process's own when the store is degraded,
   * fails, cannot read counts, or has not answered within the timeout. Rare next to hit(), so it
   * keeps a timer of its own and leaves the store's health to the hits.
   */
  async peek(key: string): Promise<Hit> {
    const own = this.own.countOf(key);
    const shared = this.shared as Partial<PeekableCounter>;
    if (this.degraded || this.closed || typeof shared.peek !== 'function') return own;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Hit>((resolve) => {
      timer = setTimeout(() => resolve(own), this.opts.timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([shared.peek.call(this.shared, key).catch(() => own), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Hits still waiting are answered from the own count; the store is being closed under them.
    for (let i = this.head; i < this.queue.length; i++) {
      const p = this.queue[i];
      if (!p.done) {
        p.done = true;
        p.resolve(p.own);
      }
    }
    this.queue = [];
    this.head = 0;
    await this.shared.close();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
