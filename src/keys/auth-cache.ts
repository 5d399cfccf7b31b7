// The per-process cache of the request pipeline's key lookup (one PostgreSQL round trip per /v1
// request without it). The rule it must not bend (docs/architecture.md §6.1 step 3): a revoked key
// or a suspended account fails from its very next request on every process, once the revoking
// command has answered. So:
// - a change of a key or an account calls invalidateAuth (./invalidate.ts) after its commit, which
//   clears every cache and, on a shared store, waits until every live process has cleared its own;
// - on a shared store a cache is used only while its process holds a lease (./auth-member.ts):
//   a process that cannot renew stops using its cache before invalidators stop waiting for it;
// - a read that was in flight while an invalidation happened is answered but not kept (generation);
// - an unknown key is never cached, so a key created a moment ago works at once;
// - expiry needs no invalidation: the authenticator compares expires_at with the clock per request.
import type { Db, Queryable } from '../db/db.js';
import { findKeyForAuth, type AuthRow } from './store.js';

/** Far more keys than one process sees in a lease; past it the oldest entry goes. */
export const AUTH_CACHE_MAX_ENTRIES = 10_000;

/** last_used_at moves at most this often (docs/architecture.md §5.3: hot paths write little). */
export const TOUCH_EVERY_MS = 60_000;

/** Says whether the cache may be used now; absent on a store one process owns (always valid). */
export interface AuthLease {
  valid(): boolean;
  /** Applies and acknowledges invalidations now, not at the next heartbeat (this process just made one). */
  catchUp(): void;
}

export class AuthCache {
  private readonly rows = new Map<string, AuthRow>();
  /** When this process last touched each key (Date.now()): a cached row's last_used_at goes stale. */
  private readonly touched = new Map<string, number>();
  /** Bumped by every clear; a read that saw a bump while in flight is not kept. */
  private generation = 0;
  private lease: AuthLease | null = null;

  constructor(private readonly maxEntries = AUTH_CACHE_MAX_ENTRIES) {}

  /** On a shared store the cache answers only while this lease is valid (set by the membership). */
  setLease(lease: AuthLease | null): void {
    this.lease = lease;
  }

  /** This process announced an invalidation: its own membership acknowledges it at once. */
  catchUp(): void {
    this.lease?.catchUp();
  }

  usable(): boolean {
    return this.lease === null || this.lease.valid();
  }

  /** The key's row and its account's, from the cache or the store (then kept, if still current). */
  async lookup(db: Queryable, hash: Buffer): Promise<AuthRow | null> {
    const id = hash.toString('hex');
    if (this.usable()) {
      const hit = this.rows.get(id);
      if (hit) return hit;
    }
    const generation = this.generation;
    const row = await findKeyForAuth(db, hash);
    // Kept only when no invalidation came while the read was in flight (it may have read the row
    // from before the change) and the lease still holds (else a renewal decides what is current).
    if (row && generation === this.generation && this.usable()) this.keep(id, row);
    return row;
  }

  private keep(id: string, row: AuthRow): void {
    if (this.rows.size >= this.maxEntries && !this.rows.has(id)) {
      const oldest = this.rows.keys().next().value;
      if (oldest !== undefined) this.rows.delete(oldest);
    }
    this.rows.set(id, row);
  }

  /**
   * True when the key's last_used_at is due to move (then recorded as moved now): the later of the
   * row's value and this process's own last touch, so a cached row does not touch every request.
   */
  touchDue(row: AuthRow, now = Date.now()): boolean {
    const last = Math.max(row.last_used_at?.getTime() ?? 0, this.touched.get(row.key_id) ?? 0);
    if (now - last <= TOUCH_EVERY_MS) return false;
    if (this.touched.size >= this.maxEntries) this.touched.clear(); // only costs an extra touch each
    this.touched.set(row.key_id, now);
    return true;
  }

  /** Forgets every row; reads in flight are not kept. */
  clear(): void {
    this.generation++;
    this.rows.clear();
  }

  get size(): number {
    return this.rows.size;
  }
}

/**
 * The caches of this process per store, for invalidateAuth. A registry rather than an object
 * passed along: the changes come from services called by the hub, the CLI and the admin socket
 * with only the Db in hand, and on PGlite the admin socket runs commands on the very Db the app
 * serves with, so the Db object is what names "this server's caches". Weak: a closed store's
 * caches go with it.
 */
const registry = new WeakMap<Db, Set<AuthCache>>();

export function registerAuthCache(db: Db, cache: AuthCache): () => void {
  let set = registry.get(db);
  if (!set) registry.set(db, (set = new Set()));
  set.add(cache);
  return () => {
    set.delete(cache);
  };
}

export function authCachesOf(db: Db): readonly AuthCache[] {
  return [...(registry.get(db) ?? [])];
}
