// A shared rate-limit store (Redis, PostgreSQL) is a dependency that can fail. FallbackCounter
// wraps one: a hit the store has not answered within the timeout (or answered with an error) is
// answered from what this process knows of the key's count instead, so a down or slow store never
// fails a request and never makes it wait longer than the timeout.
//
// Counting (KeyCounts): every hit is counted here too, along with what the store's answers said
// about hits from elsewhere, so a fallback answers this process's hits in the window plus the
// store's count from elsewhere as of its latest answer. With one process the limit is exact
// whatever the store does; with N processes each adds its own hits to what it last learned of the
// others', so during an outage the N together allow at most N x the limit. A late answer is not
// used for its request (answered already) but still teaches the count from elsewhere, and never
// lowers it; every answer given is at least the count this process knows.
//
// While degraded, hits are answered at once, and at most one probe at a time (at most one per
// probeEveryMs) goes to the shared store; a probe answered within the timeout makes the store
// healthy again. Nothing else is sent to a store that is not answering, so nothing piles up in its
// client.
//
// Timeouts use one timer for all the hits in flight (their deadlines come in order, as all use
// the same timeout), not one timer per request: this runs on every /v1 request. The store's answer
// times go into a histogram logged (info) every statsEveryMs and at close, so the deadline can be
// set from measured figures (`npm run bench` reads them).
import { KeyCounts, type Ticket } from './key-counts.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { Hit, PeekableCounter, WindowCounter } from './window-counter.js';

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
  /** The store's answer times are logged this often while hits arrive, and at close (default 10 minutes). */
  statsEveryMs?: number;
  now?: () => number;
}

/** A hit waiting for the shared store's answer. */
interface Pending {
  deadline: number;
  sentAt: number;
  done: boolean;
  ticket: Ticket;
  resolve: (h: Hit) => void;
}

export class FallbackCounter implements PeekableCounter {
  private readonly counts: KeyCounts;
  private readonly now: () => number;
  private readonly probeEveryMs: number;
  private readonly logEveryMs: number;
  private readonly statsEveryMs: number;
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
  // Since start: the store's answer times, answers after the deadline, failures, and hits answered
  // by this process's count (timed out, failed, or while degraded).
  private readonly times = new LatencyHistogram();
  private late = 0;
  private failures = 0;
  private fallbacks = 0;
  private nextStatsAt: number;
  private answersLogged = 0;
  private fallbacksLogged = 0;

  constructor(
    private readonly shared: WindowCounter,
    private readonly opts: FallbackOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.counts = new KeyCounts(this.now);
    this.probeEveryMs = opts.probeEveryMs ?? 1_000;
    this.logEveryMs = opts.logEveryMs ?? 60_000;
    this.statsEveryMs = opts.statsEveryMs ?? 600_000;
    this.nextStatsAt = this.now() + this.statsEveryMs;
  }

  /** 'degraded' while hits are answered from the process's own count. May start a probe. */
  health(): 'ok' | 'degraded' {
    if (this.degraded && this.probeDue()) this.startProbe('health', null);
    return this.degraded ? 'degraded' : 'ok';
  }

  hit(key: string): Promise<Hit> {
    const t = this.now();
    if (t >= this.nextStatsAt) this.logStats(t);
    if (this.degraded || this.closed) {
      const probing = this.probeDue();
      const ticket = this.counts.count(key, probing);
      if (probing) this.startProbe(key, ticket);
      this.fallbacks++;
      return Promise.resolve(this.counts.estimate(ticket));
    }
    const ticket = this.counts.count(key, true);
    return new Promise<Hit>((resolve) => {
      const p: Pending = { deadline: t + this.opts.timeoutMs, sentAt: t, done: false, ticket, resolve };
      this.queue.push(p);
      if (!this.timer) this.arm(this.opts.timeoutMs);
      this.shared.hit(key).then(
        (h) => this.answered(p, h),
        (err) => this.failed(p, err),
      );
    });
  }

  /** The store's answer times and what the fallback did, since start (logged, and read by tests). */
  stats() {
    return { ...this.times.summary(), late: this.late, failed: this.failures, fallbacks: this.fallbacks };
  }

  private took(sentAt: number): void {
    const ms = this.now() - sentAt;
    this.times.record(ms);
    if (ms > this.opts.timeoutMs) this.late++;
  }

  private answered(p: Pending, h: Hit): void {
    this.took(p.sentAt);
    // In time or late, the answer teaches the count from elsewhere; a late one answers nobody.
    const count = this.counts.answered(p.ticket, h.count);
    if (p.done) return;
    p.done = true;
    p.resolve({ count, resetMs: h.resetMs });
    this.dropDone();
  }

  private failed(p: Pending, err: unknown): void {
    this.failures++;
    // A late failure was already counted as a timeout (and the store may have recovered since).
    if (p.done) return;
    p.done = true;
    this.fallbacks++;
    p.resolve(this.counts.estimate(p.ticket));
    this.dropDone();
    this.degrade(errorText(err));
  }

  /** Drops answered hits from the front of the queue, so it stays short while the store is fast. */
  private dropDone(): void {
    const q = this.queue;
    while (q[this.head]?.done) this.head++;
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

  /** The one timer: answers every hit past its deadline from what this process knows of its count. */
  private expire(): void {
    if (this.closed) return;
    this.timer = null;
    const t = this.now();
    const q = this.queue;
    let late = false;
    for (let p = q[this.head]; p; p = q[++this.head]) {
      if (!p.done) {
        if (p.deadline > t) break;
        p.done = true;
        this.fallbacks++;
        p.resolve(this.counts.estimate(p.ticket));
        late = true;
      }
    }
    this.dropDone();
    if (late) this.degrade(`no answer within ${this.opts.timeoutMs} ms`);
    const next = this.queue[this.head];
    if (next) this.arm(next.deadline - t);
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
        'the shared rate-limit store is not answering: each process counts its own requests on top of the others\' as last answered (at most the limit per process) until it answers again',
      );
    }
  }

  /** While degraded: may a hit go to the store as a probe now? One at a time, at most once per probeEveryMs. */
  private probeDue(): boolean {
    const t = this.now();
    // A probe the store never settles (it should: its client has timeouts) is given up after a while.
    const stuck = this.probe !== 0 && t - this.probeStartedAt > Math.max(30_000, 10 * this.opts.timeoutMs);
    return !this.closed && (this.probe === 0 || stuck) && t >= this.nextProbeAt;
  }

  /** Sends one hit to the store as a probe; a real hit's answer (ticket) also teaches the count from elsewhere. */
  private startProbe(key: string, ticket: Ticket | null): void {
    const t = this.now();
    const id = ++this.probeSeq;
    this.probe = id;
    this.probeStartedAt = t;
    this.nextProbeAt = t + this.probeEveryMs;
    this.shared.hit(key).then(
      (h) => {
        this.took(t);
        if (ticket) this.counts.answered(ticket, h.count);
        if (this.probe !== id) return;
        this.probe = 0;
        // Answered, but too late to be used: still degraded (a store that is slow, not down).
        const took = this.now() - t;
        if (took > this.opts.timeoutMs) return this.degrade(`answered in ${took} ms`);
        this.recover();
      },
      (err) => {
        this.failures++;
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

  /** The answer-time line: at most every statsEveryMs, only when the store answered since the last one. */
  private logStats(t: number): void {
    this.nextStatsAt = t + this.statsEveryMs;
    if (this.times.total === this.answersLogged && this.fallbacks === this.fallbacksLogged) return;
    this.answersLogged = this.times.total;
    this.fallbacksLogged = this.fallbacks;
    this.opts.log.info(
      { rate_limit_store: this.opts.store, timeout_ms: this.opts.timeoutMs, ...this.stats() },
      'shared rate-limit store answer times since start',
    );
  }

  /**
   * A key's count without adding to it (the sign-in throttle reads its failure counts before it
   * checks a password): the shared store's, or what this process knows of it when the store is
   * degraded, fails, cannot read counts, or has not answered within the timeout; never below what
   * this process knows. Rare next to hit(), so it keeps a timer of its own and leaves the store's
   * health to the hits.
   */
  async peek(key: string): Promise<Hit> {
    const known = this.counts.countOf(key);
    const shared = this.shared as Partial<PeekableCounter>;
    if (this.degraded || this.closed || typeof shared.peek !== 'function') return known;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Hit>((resolve) => {
      timer = setTimeout(() => resolve(known), this.opts.timeoutMs);
      timer.unref();
    });
    try {
      const h = await Promise.race([shared.peek.call(this.shared, key).catch(() => known), late]);
      return { count: Math.max(h.count, this.counts.countOf(key).count), resetMs: h.resetMs };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (!this.closed) this.logStats(this.now());
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // Hits still waiting are answered from what this process knows; the store is being closed under them.
    for (const p of this.queue.slice(this.head)) {
      if (!p.done) {
        p.done = true;
        this.fallbacks++;
        p.resolve(this.counts.estimate(p.ticket));
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
