// Fixed-window counters for rate limits. Windows are aligned to the clock (floor(now / 60 s)) in
// every backend, so processes sharing Redis or PostgreSQL agree on when a window restarts.
import type { Redis } from 'ioredis';
import type { Queryable } from '../db/db.js';
import { countHits, readHits } from './counter-store.js';
import { HitBatcher } from './hit-batcher.js';

export const WINDOW_MS = 60_000;

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window restarts. */
  resetMs: number;
}

export interface WindowCounter {
  hit(key: string): Promise<Hit>;
  close(): Promise<void>;
  /** 'degraded' while a shared store is not answering and counts are this process's own (FallbackCounter). */
  health?(): 'ok' | 'degraded';
}

/**
 * A counter that can also read a key's count without adding to it: the sign-in throttle counts
 * failures, and must know them before it checks a password (src/hub/session/throttle.ts).
 */
export interface PeekableCounter extends WindowCounter {
  /** The key's count in the current window (0 when none), adding nothing. */
  peek(key: string): Promise<Hit>;
}

export function windowOf(now: number): { start: number; resetMs: number } {
  const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  return { start, resetMs: start + WINDOW_MS - now };
}

/** One process: a Map, swept of past windows as it goes. */
export class MemoryCounter implements PeekableCounter {
  private readonly counts = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string): Promise<Hit> {
    return this.count(key);
  }

  /** hit(), without a promise (FallbackCounter counts every hit here too, on the hot path). */
  count(key: string): Hit {
    const t = this.now();
    const { start, resetMs } = windowOf(t);
    if (start !== this.lastSweep) this.sweep(start);
    const cur = this.counts.get(key);
    if (cur && cur.start === start) {
      cur.count++;
      return { count: cur.count, resetMs };
    }
    this.counts.set(key, { start, count: 1 });
    return { count: 1, resetMs };
  }

  async peek(key: string): Promise<Hit> {
    return this.countOf(key);
  }

  /** peek(), without a promise. */
  countOf(key: string): Hit {
    const { start, resetMs } = windowOf(this.now());
    const cur = this.counts.get(key);
    return { count: cur && cur.start === start ? cur.count : 0, resetMs };
  }

  private sweep(start: number): void {
    this.lastSweep = start;
    for (const [k, v] of this.counts) if (v.start < start) this.counts.delete(k);
  }

  async close(): Promise<void> {}
}

/**
 * Shared by every process on one PostgreSQL: one atomic upsert per hit on an UNLOGGED table.
 * `owned` is a pool of its own (Db.boundedPool) that close() releases.
 */
export class PostgresCounter implements PeekableCounter {
  private readonly batcher: HitBatcher;

  constructor(
    private readonly db: Queryable,
    private readonly now: () => number = Date.now,
    private readonly owned: { close(): Promise<void> } | null = null,
  ) {
    this.batcher = new HitBatcher((key, n, start) => countHits(this.db, key, n, start));
  }

  async hit(key: string): Promise<Hit> {
    const { start, resetMs } = windowOf(this.now());
    return { count: await this.batcher.hit(key, start), resetMs };
  }

  async peek(key: string): Promise<Hit> {
    const { start, resetMs } = windowOf(this.now());
    return { count: await readHits(this.db, key, start), resetMs };
  }

  async close(): Promise<void> {
    await this.owned?.close();
  }
}

/** Shared through Redis: INCR on a per-window key that expires after the window. */
export class RedisCounter implements PeekableCounter {
  private lastError = '';
  private readonly batcher = new HitBatcher((key, n, start) => this.add(key, n, start));

  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
  ) {
    // A connection error surfaces as the commands it fails (FallbackCounter answers and logs
    // those); without a listener ioredis prints "Unhandled error event" on every reconnect attempt.
    redis.on('error', (err: Error) => {
      this.lastError = err.message;
    });
  }

  /**
   * Waits (at most ms) for the first connection: commands are refused while disconnected, so
   * without this the first requests after a start would be counted as a store failure.
   */
  async connected(ms: number): Promise<void> {
    if (this.redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.redis.once('ready', done);
    });
  }

  async hit(key: string): Promise<Hit> {
    // Refused at once while disconnected (as ioredis would, without its offline queue), saying why.
    if (this.redis.status !== 'ready') throw new Error(`Redis is not connected (${this.lastError || this.redis.status})`);
    const { start, resetMs } = windowOf(this.now());
    return { count: await this.batcher.hit(key, start), resetMs };
  }

  async peek(key: string): Promise<Hit> {
    if (this.redis.status !== 'ready') throw new Error(`Redis is not connected (${this.lastError || this.redis.status})`);
    const { start, resetMs } = windowOf(this.now());
    return { count: Number((await this.redis.get(`switchboard:rl:${key}:${start}`)) ?? 0), resetMs };
  }

  /** n hits in one round trip: INCRBY and the key's expiry, as one transaction. */
  private async add(key: string, n: number, start: number): Promise<number> {
    const k = `switchboard:rl:${key}:${start}`;
    const res = await this.redis.multi().incrby(k, n).pexpire(k, WINDOW_MS + 5_000).exec();
    const [err, count] = res?.[0] ?? [new Error('redis returned no result'), 0];
    if (err) throw err;
    return Number(count);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
