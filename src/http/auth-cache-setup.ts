// The app's key cache: registered for its Db (so invalidateAuth, from the hub, the CLI or the
// admin socket, clears it), and on a store several processes share, a member of the coherence
// protocol whose lease decides whether the cache may be used. On a store one process owns every
// change passes through this process, so the registration alone keeps the cache exact.
import type { Db } from '../db/db.js';
import { AuthCache, registerAuthCache } from '../keys/auth-cache.js';
import { AuthCacheMember, type MemberLog } from '../keys/auth-member.js';

export interface AppAuthCache {
  cache: AuthCache;
  /** Joins the protocol (shared store); until then the cache is not used. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function appAuthCache(db: Db, leaseMs: number, log: MemberLog): AppAuthCache {
  const cache = new AuthCache();
  const unregister = registerAuthCache(db, cache);
  // Made now, so the cache holds no lease (and is bypassed) until start() has taken one.
  const member = db.capabilities.multiProcess ? new AuthCacheMember(db, cache, { leaseMs, log }) : null;
  return {
    cache,
    start: async () => {
      await member?.start();
    },
    stop: async () => {
      unregister();
      await member?.close();
    },
  };
}
