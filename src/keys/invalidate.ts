// After a change of a key or an account that the request pipeline reads (api_keys revoked_at,
// expires_at, replaced_by, scopes, name; accounts state, subscription, api_open, tier,
// requests_per_minute) has COMMITTED: every process's key cache forgets what it holds before the
// change's command or request answers. Never call it inside the transaction: a process reading
// again before the commit would cache the old row anew.
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type { Db } from '../db/db.js';
import { authCachesOf } from './auth-cache.js';
import { announceInvalidation, unackedMembers } from './auth-cache-store.js';

export interface InvalidationOptions {
  pollMs?: number;
}

export interface InvalidationOutcome {
  /** The invalidation's number (null on a store one process owns, or before migration 0026). */
  n: number | null;
  waitedMs: number;
  /**
   * Members still counted when the wait gave up. It gives up when the last lease live at its first
   * look has passed; safe all the same: a member trusts its cache only until its last renewal
   * + lease − margin, which for one that has not cleared lies before that; a member that renewed
   * after the announcement read the counter after it, so cleared its cache (and only its ack was
   * lost, or its lease was written without the read that would let it trust the cache).
   */
  unacked: number;
}

const POLL_MS = 10;
/** Beyond the last lease, for the two clocks' rates (members also stop trusting a margin early). */
const SLACK_MS = 50;
const UNDEFINED_TABLE = '42P01';

/**
 * Clears this process's caches for the store, and on a shared store makes every other live
 * process clear its own and waits for their acknowledgements. On PGlite the server's caches are
 * the only ones, and operator commands reach that server's Db through its admin socket, so the
 * local clear is the whole of it.
 */
export async function invalidateAuth(db: Db, opts: InvalidationOptions = {}): Promise<InvalidationOutcome> {
  for (const cache of authCachesOf(db)) cache.clear();
  if (!db.capabilities.multiProcess) return { n: null, waitedMs: 0, unacked: 0 };
  return invalidateMembers(db, opts);
}

/**
 * The shared-store half: announce invalidation n, then wait until no member with a live lease has
 * acknowledged less; a member that has stopped answering is waited for until its lease passes.
 */
export async function invalidateMembers(db: Db, opts: InvalidationOptions = {}): Promise<InvalidationOutcome> {
  const started = performance.now();
  let n: number;
  try {
    n = await announceInvalidation(db);
  } catch (err) {
    // A store whose schema predates the cache (rolling deploy): no process there has a cache to clear.
    if ((err as { code?: string }).code === UNDEFINED_TABLE) return { n: null, waitedMs: 0, unacked: 0 };
    throw err;
  }
  // This process's own members would hear the NOTIFY too; telling them directly saves the trip.
  for (const cache of authCachesOf(db)) cache.catchUp();
  let deadline: number | null = null;
  for (;;) {
    await sleep(opts.pollMs ?? POLL_MS);
    const { count, leftMs } = await unackedMembers(db, n);
    const now = performance.now();
    if (count === 0) return { n, waitedMs: now - started, unacked: 0 };
    // Fixed at the first look: a member that keeps renewing without acknowledging does not
    // stretch the wait (see InvalidationOutcome.unacked for why stopping then is safe).
    deadline ??= now + leftMs + SLACK_MS;
    if (now > deadline) return { n, waitedMs: now - started, unacked: count };
  }
}
