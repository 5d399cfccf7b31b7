// What one process knows of each key's count in the current window, so that a hit the shared
// store does not answer in time is still answered with the key's whole count, not just this
// process's share of it.
//
// Per key: `own`, this process's hits in the window; `sent`, how many of them were handed to the
// shared store; `others`, the hits the store had counted that were not this process's. The store
// counts one key's hits of one process in the order they were sent (HitBatcher keeps one statement
// per key in flight), so an answer of `count` to the hit that was this process's `sent`-th sent
// hit says the store had counted `count - sent` hits from elsewhere (other processes, an earlier
// process in the same window). That only grows within a window, so `others` keeps the largest
// seen and an answer that arrives late never lowers it.
//
// A hit's count is then `own + others`: this process's hits, every one of them (those the store
// has not answered or was never sent included), plus the store's hits from elsewhere as of its
// latest answer. With one process this is exact whatever the store does: `others` is what the
// store counted before this process started (0 for a fresh window), and `own` is every hit since.
// Counting a hit sent to a store that failed as sent errs on the safe side: `others` can then
// only come out lower, and `own` still counts the hit.
//
// O(1) per hit (one Map lookup); the Map holds the keys of the current window only (swept when
// a new window starts, as MemoryCounter is).
import { windowOf, type Hit } from './window-counter.js';

export interface KeyCount {
  start: number;
  own: number;
  sent: number;
  others: number;
}

/** One hit of this process: where it stands in its key's counts. */
export interface Ticket {
  entry: KeyCount;
  /** This process's hits of the key in the window, this one included. */
  own: number;
  /** Of which sent to the store (this one included when it was sent). */
  sent: number;
  resetMs: number;
}

export class KeyCounts {
  private readonly keys = new Map<string, KeyCount>();
  private lastSweep = 0;

  constructor(private readonly now: () => number) {}

  /** Counts one hit of this process; `sent`: it goes to the shared store. */
  count(key: string, sent: boolean): Ticket {
    const { start, resetMs } = windowOf(this.now());
    if (start !== this.lastSweep) this.sweep(start);
    let e = this.keys.get(key);
    if (!e || e.start !== start) {
      e = { start, own: 0, sent: 0, others: 0 };
      this.keys.set(key, e);
    }
    e.own++;
    if (sent) e.sent++;
    return { entry: e, own: e.own, sent: sent ? e.sent : 0, resetMs };
  }

  /**
   * The store answered the ticket's hit with `count` (in time or late): learns how many hits it
   * had from elsewhere, and returns the hit's count, never below what this process knows.
   */
  answered(t: Ticket, count: number): number {
    const e = t.entry;
    if (t.sent > 0 && count - t.sent > e.others) e.others = count - t.sent;
    return Math.max(count, t.own + e.others);
  }

  /** A hit the store did not answer (late, failed, not sent): this process's hits plus the store's from elsewhere. */
  estimate(t: Ticket): Hit {
    return { count: t.own + t.entry.others, resetMs: t.resetMs };
  }

  /** The key's count in the current window without adding to it (peek). */
  countOf(key: string): Hit {
    const { start, resetMs } = windowOf(this.now());
    const e = this.keys.get(key);
    return { count: e && e.start === start ? e.own + e.others : 0, resetMs };
  }

  /** Keys held (tests: the Map keeps the current window only). */
  get size(): number {
    return this.keys.size;
  }

  private sweep(start: number): void {
    this.lastSweep = start;
    for (const [k, v] of this.keys) if (v.start < start) this.keys.delete(k);
  }
}
