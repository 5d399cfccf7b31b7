// A process's membership in the key cache's coherence protocol on a shared store (PostgreSQL):
// the lease that lets it use its AuthCache, and the acknowledgement of invalidations.
//
// Every heartbeat: (1) write the row (acked = last invalidation applied, lease = db now() + lease)
// and let it commit; (2) then read the invalidation counter; if it moved, clear the cache and write
// the new acked. The cache may be used until (time (1) was sent) + lease − margin. The order is
// what makes it safe: an invalidation taken before (2) is seen by (2) and cleared before the cache
// is trusted; one taken after (2) finds this row (committed at (1)) alive until at least the end
// of our local validity, so the invalidator waits for our ack, and we clear before we ack. A
// process that stalls (no renewal) stops trusting its cache before its row stops counting; a
// read of the counter in the same statement as the write would break this (it could read before
// an invalidation yet commit after the invalidator stopped counting a lapsed row).
// NOTIFY makes acks fast (milliseconds); the heartbeat alone would still be correct, only slower.
import { performance } from 'node:perf_hooks';
import type { Db } from '../db/db.js';
import { uuidv7 } from '../lib/ids.js';
import type { AuthCache, AuthLease } from './auth-cache.js';
import { AUTH_INVALIDATE_CHANNEL, deleteMember, lastInvalidation, renewMember } from './auth-cache-store.js';

/** How long a renewal lets a member use its cache (config authCacheLeaseMs); an invalidator waits at most this for a dead member. */
export const AUTH_LEASE_MS = 5_000;
/** Renewals per lease: a member misses several heartbeats before it stops trusting its cache. */
const HEARTBEATS_PER_LEASE = 5;
/** Stop trusting the cache this fraction of the lease before it ends: room for the two clocks' drift. */
const MARGIN_FRACTION = 0.1;

export interface MemberLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface MemberOptions {
  leaseMs?: number;
  heartbeatMs?: number;
  marginMs?: number;
  /** Monotonic milliseconds (tests move it by hand). */
  clock?: () => number;
  log?: MemberLog;
}

const SILENT: MemberLog = { warn: () => {}, info: () => {} };

export class AuthCacheMember implements AuthLease {
  readonly processId = uuidv7();
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly marginMs: number;
  private readonly clock: () => number;
  private readonly log: MemberLog;
  private validUntil = -Infinity;
  /** The last invalidation whose clear this cache has done (0: none yet; the cache starts empty). */
  private processed = 0;
  private wantRenew = false;
  private wantCatchUp = false;
  private busy: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private closed = false;
  private failing = false;
  private listening = false;
  private listenFailed = false;

  constructor(
    private readonly db: Db,
    private readonly cache: AuthCache,
    opts: MemberOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? AUTH_LEASE_MS;
    this.heartbeatMs = opts.heartbeatMs ?? Math.round(this.leaseMs / HEARTBEATS_PER_LEASE);
    this.marginMs = opts.marginMs ?? Math.round(this.leaseMs * MARGIN_FRACTION);
    this.clock = opts.clock ?? (() => performance.now());
    this.log = opts.log ?? SILENT;
    cache.setLease(this);
  }

  valid(): boolean {
    return !this.closed && this.clock() < this.validUntil;
  }

  /**
   * Listens first (so no invalidation announced after our first row is missed), then takes the
   * first lease. Neither failing stops the server: until a renewal succeeds every request reads
   * the store, as it did before there was a cache.
   */
  async start(): Promise<void> {
    await this.listen();
    await this.renewNow();
    this.timer = setInterval(() => void this.schedule('renew'), this.heartbeatMs);
    this.timer.unref();
  }

  /** One heartbeat now (start, tests). */
  renewNow(): Promise<void> {
    return this.schedule('renew');
  }

  catchUp(): void {
    void this.schedule('catchUp');
  }

  /** Stops renewing and removes the row, so invalidators stop waiting for this process at once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.validUntil = -Infinity;
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.().catch(() => {});
    // A renewal in flight would write the row back after the delete; a stalled one is not waited for long.
    if (this.busy) await Promise.race([this.busy, new Promise<void>((r) => setTimeout(r, this.leaseMs).unref())]);
    await deleteMember(this.db, this.processId).catch((err: unknown) => this.log.warn({ err }, 'could not remove this process from auth_cache_members'));
  }

  private async listen(): Promise<void> {
    if (this.unlisten || this.listening || this.closed) return;
    this.listening = true;
    try {
      // A numbered invalidation is applied (and acknowledged) by catchUp. Anything else — 'db',
      // sent by the triggers of migration 0026 when a row changed without invalidateAuth, or ''
      // after the listener reconnects (notifications in the gap are lost) — clears the cache first.
      const unlisten = await this.db.listen(AUTH_INVALIDATE_CHANNEL, (payload) => {
        if (!/^\d+$/.test(payload)) this.cache.clear();
        this.catchUp();
      });
      if (this.closed) await unlisten();
      else this.unlisten = unlisten;
    } catch (err) {
      if (!this.listenFailed) this.log.warn({ err }, 'auth cache: cannot listen for invalidations; acknowledging at each heartbeat until it can');
      this.listenFailed = true;
    } finally {
      this.listening = false;
    }
  }

  /** Heartbeats and catch-ups run one at a time, in order; requests made meanwhile run after. */
  private schedule(kind: 'renew' | 'catchUp'): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (kind === 'renew') this.wantRenew = true;
    else this.wantCatchUp = true;
    if (!this.busy) this.busy = this.drain();
    return this.busy;
  }

  private async drain(): Promise<void> {
    try {
      while (!this.closed && (this.wantRenew || this.wantCatchUp)) {
        const renew = this.wantRenew;
        this.wantRenew = this.wantCatchUp = false;
        try {
          if (renew) await this.renew();
          else await this.applyInvalidations();
          if (this.failing) this.log.info({ processId: this.processId }, 'auth cache: lease renewed; using the cache again');
          this.failing = false;
        } catch (err) {
          if (!this.failing) this.log.warn({ err, processId: this.processId }, 'auth cache: lease renewal failed; requests read the store until it succeeds');
          this.failing = true;
        }
      }
    } finally {
      this.busy = null; // in the same turn as the last check of the flags: no request is lost
    }
  }

  private async renew(): Promise<void> {
    const sent = this.clock();
    await renewMember(this.db, this.processId, this.processed, this.leaseMs);
    await this.applyInvalidations();
    this.validUntil = sent + this.leaseMs - this.marginMs;
    // Tried again in the background: a slow connection must not hold up acknowledgements.
    if (!this.unlisten) void this.listen();
  }

  /** Clears the cache for every invalidation announced since the last, then acknowledges it. */
  private async applyInvalidations(): Promise<void> {
    const n = await lastInvalidation(this.db);
    if (n <= this.processed) return;
    this.cache.clear();
    this.processed = n;
    await renewMember(this.db, this.processId, n, this.leaseMs);
  }
}
