// The per-process API-key cache (src/keys/auth-cache.ts) and its coherence protocol: a cached key
// costs no query; a revocation, a suspension or a roll made through the real service or CLI path
// (and the API switch, the request limit) acts from the very next request; a read in flight
// across an invalidation is not kept; a member without a live lease reads the store; a member
// that stops acknowledging holds an invalidation up only until its lease passes, and by then it
// no longer trusts its own cache. Both stores.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountCommand } from '../../src/cli/account.js';
import { keysCommand } from '../../src/cli/keys.js';
import type { Db, Queryable } from '../../src/db/db.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { AuthCache, registerAuthCache, TOUCH_EVERY_MS } from '../../src/keys/auth-cache.js';
import { AuthCacheMember } from '../../src/keys/auth-member.js';
import { invalidateAuth, invalidateMembers } from '../../src/keys/invalidate.js';
import type { AuthRow } from '../../src/keys/store.js';
import { hashKey } from '../../src/lib/api-keys.js';
import { OPERATOR } from '../../src/services/audit/service.js';
import { revokeAccountKey } from '../../src/services/keys/manage.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    account('acme', { keys: [{ ref: 'main' }, { ref: 'spare' }, { ref: 'roll' }, { ref: 'roll2' }, { ref: 'held' }, { ref: 'unit' }] }),
    account('beta'),
  );
});
afterAll(() => t?.close());
afterEach(() => {
  vi.useRealTimers();
});

const get = (key: string) => t.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key) });

/** A Queryable over the test's store that counts the statements it runs. */
function counting(db: Queryable): Queryable & { calls: number } {
  const c = {
    calls: 0,
    query: <T>(sql: string, params?: readonly unknown[]) => {
      c.calls++;
      return db.query<T>(sql, params);
    },
  };
  return c;
}

describe('hits and misses', () => {
  it('a cached key costs no query; an unknown key is never cached', async () => {
    const cache = new AuthCache();
    const db = counting(t.db);
    const hash = hashKey(s.acme.keys.unit);
    const first = await cache.lookup(db, hash);
    expect(first).toMatchObject({ key_id: s.acme.key_ids.unit, account_id: s.acme.id });
    expect(await cache.lookup(db, hash)).toBe(first);
    expect(db.calls).toBe(1);
    const unknown = hashKey('svc_live_' + 'x'.repeat(40));
    expect(await cache.lookup(db, unknown)).toBeNull();
    expect(await cache.lookup(db, unknown)).toBeNull();
    expect(db.calls).toBe(3);
    cache.clear();
    await cache.lookup(db, hash);
    expect(db.calls).toBe(4);
  });

  it('is bounded: past its size the oldest entry goes', async () => {
    const cache = new AuthCache(2);
    const db = counting(t.db);
    for (const ref of ['main', 'spare', 'unit']) await cache.lookup(db, hashKey(s.acme.keys[ref]));
    expect(cache.size).toBe(2);
    await cache.lookup(db, hashKey(s.acme.keys.unit));
    expect(db.calls).toBe(3); // the newest is kept
    await cache.lookup(db, hashKey(s.acme.keys.main));
    expect(db.calls).toBe(4); // the oldest went
  });

  it('touches last_used_at at most once a minute per key, whatever the cached row says', () => {
    const cache = new AuthCache();
    const row = { key_id: 'k1', last_used_at: null } as unknown as AuthRow;
    const now = Date.now();
    expect(cache.touchDue(row, now)).toBe(true);
    expect(cache.touchDue(row, now + 1_000)).toBe(false); // the cached row still says never
    expect(cache.touchDue(row, now + TOUCH_EVERY_MS + 1)).toBe(true);
    const fresh = { key_id: 'k2', last_used_at: new Date(now - 5_000) } as unknown as AuthRow;
    expect(cache.touchDue(fresh, now)).toBe(false);
  });

  it("a request records the key's use", async () => {
    const [before] = await t.db.query<{ last_used_at: Date | null }>('select last_used_at from api_keys where id = $1', [s.beta.key_ids.main]);
    expect(before.last_used_at).toBeNull();
    expect((await get(s.beta.keys.main)).statusCode).toBe(200);
    await vi.waitFor(async () => {
      const [r] = await t.db.query<{ last_used_at: Date | null }>('select last_used_at from api_keys where id = $1', [s.beta.key_ids.main]);
      expect(r.last_used_at).not.toBeNull();
    });
  });
});

describe('changes act from the very next request', () => {
  it('keys revoke (the CLI path) → 401 api_key_revoked, though the key was cached', async () => {
    for (let i = 0; i < 3; i++) expect((await get(s.acme.keys.spare)).statusCode).toBe(200);
    const r = await keysCommand(t.db, ['revoke', '--account', s.acme.id, '--key', s.acme.key_ids.spare]);
    expect(r.code, r.stderr).toBe(0);
    expectError(await get(s.acme.keys.spare), 401, 'authentication', 'api_key_revoked');
  });

  it('account set --state suspended → 403 account_suspended; active again → 200', async () => {
    for (let i = 0; i < 3; i++) expect((await get(s.beta.keys.main)).statusCode).toBe(200);
    const set = (state: string) => accountCommand(t.db, ['set', '--account', s.beta.id, '--state', state]);
    expect((await set('suspended')).code).toBe(0);
    expectError(await get(s.beta.keys.main), 403, 'permission', 'account_suspended');
    expect((await set('active')).code).toBe(0);
    expect((await get(s.beta.keys.main)).statusCode).toBe(200);
  });

  it('the API switch and the per-key request limit act from the next request too', async () => {
    const set = (...args: string[]) => accountCommand(t.db, ['set', '--account', s.beta.id, ...args]);
    const before = await get(s.beta.keys.main);
    expect(before.statusCode).toBe(200);
    expect((await set('--requests-per-minute', '7')).code).toBe(0);
    expect((await get(s.beta.keys.main)).headers['ratelimit-limit']).toBe('7');
    expect((await set('--api-open', 'false')).code).toBe(0);
    expectError(await get(s.beta.keys.main), 404, 'not_found', 'api_not_available');
    expect((await set('--api-open', 'true', '--requests-per-minute', 'default')).code).toBe(0);
    expect((await get(s.beta.keys.main)).headers['ratelimit-limit']).toBe(before.headers['ratelimit-limit']);
  });

  it('a rolled key with grace none → 401 api_key_expired at once', async () => {
    expect((await get(s.acme.keys.roll2)).statusCode).toBe(200);
    const r = await keysCommand(t.db, ['roll', '--account', s.acme.id, '--key', s.acme.key_ids.roll2, '--grace', 'none', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expectError(await get(s.acme.keys.roll2), 401, 'authentication', 'api_key_expired');
    expect((await get(JSON.parse(r.stdout).key)).statusCode).toBe(200);
  });

  it('a rolled key in its grace works from the cache, and expires by the clock alone', async () => {
    const r = await keysCommand(t.db, ['roll', '--account', s.acme.id, '--key', s.acme.key_ids.roll, '--grace', '1h']);
    expect(r.code, r.stderr).toBe(0);
    expect((await get(s.acme.keys.roll)).statusCode).toBe(200);
    expect((await get(s.acme.keys.roll)).statusCode).toBe(200);
    // No change and no invalidation: an hour passes (Date only; timers and the store keep real time).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3_600_000 + 1_000);
    expectError(await get(s.acme.keys.roll), 401, 'authentication', 'api_key_expired');
  });
});

describe('the generation guard', () => {
  it('a read in flight when an invalidation comes is answered but not kept', async () => {
    const cache = new AuthCache();
    const unregister = registerAuthCache(t.db, cache);
    try {
      // A store whose answers wait at a gate: the read happens now (before the revoke commits),
      // its answer arrives after the revoke's invalidation.
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      let ran!: () => void;
      const readDone = new Promise<void>((r) => (ran = r));
      const held: Queryable = {
        query: async <T>(sql: string, params?: readonly unknown[]) => {
          const rows = await t.db.query<T>(sql, params);
          ran();
          await gate;
          return rows;
        },
      };
      const hash = hashKey(s.acme.keys.held);
      const inFlight = cache.lookup(held, hash);
      await readDone;
      await revokeAccountKey(t.db, s.acme.id, s.acme.key_ids.held, OPERATOR);
      open();
      expect((await inFlight)?.revoked_at).toBeNull(); // the old row, read before the commit
      const db = counting(t.db);
      const row = await cache.lookup(db, hash);
      expect(db.calls).toBe(1); // not kept: read again
      expect(row?.revoked_at).toBeInstanceOf(Date);
    } finally {
      unregister();
    }
  });
});

/** A store that can freeze: statements wait and notifications are dropped, as for a stalled process. */
function freezable(db: Db): Db & { freeze(): void; thaw(): void } {
  let frozen: { promise: Promise<void>; release: () => void } | null = null;
  const wait = () => frozen?.promise;
  const wrapper = Object.create(db) as Db & { freeze(): void; thaw(): void };
  Object.assign(wrapper, {
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      await wait();
      return db.query<T>(sql, params);
    },
    listen: (channel: string, onNotify: (p: string) => void) => db.listen(channel, (p) => frozen || onNotify(p)),
    freeze: () => {
      let release!: () => void;
      const promise = new Promise<void>((r) => (release = r));
      frozen = { promise, release };
    },
    thaw: () => {
      frozen?.release();
      frozen = null;
    },
  });
  return wrapper;
}

describe('the lease', () => {
  it('a member whose lease has passed reads the store on every request, until it renews', async () => {
    let now = 1_000_000;
    const cache = new AuthCache();
    const member = new AuthCacheMember(t.db, cache, { leaseMs: 5_000, marginMs: 500, heartbeatMs: 3_600_000, clock: () => now });
    try {
      await member.start();
      const db = counting(t.db);
      const hash = hashKey(s.acme.keys.main);
      await cache.lookup(db, hash);
      await cache.lookup(db, hash);
      expect(db.calls).toBe(1);
      now += 4_499;
      await cache.lookup(db, hash);
      expect(db.calls).toBe(1);
      now += 2; // past lease − margin
      expect(member.valid()).toBe(false);
      await cache.lookup(db, hash);
      await cache.lookup(db, hash);
      expect(db.calls).toBe(3);
      // Renewed (and no invalidation since): what it holds is current again, no query needed.
      await member.renewNow();
      expect(member.valid()).toBe(true);
      await cache.lookup(db, hash);
      await cache.lookup(db, hash);
      expect(db.calls).toBe(3);
    } finally {
      await member.close();
    }
  });

  it('a live member acknowledges within moments; a stalled one is waited for until its lease passes, no longer', async () => {
    const leaseMs = 1_500;
    const store = freezable(t.db);
    const cache = new AuthCache();
    const member = new AuthCacheMember(store, cache, { leaseMs, marginMs: 200, heartbeatMs: 100 });
    try {
      await member.start();
      const quick = await invalidateMembers(t.db);
      expect(quick.unacked).toBe(0);
      expect(quick.waitedMs).toBeLessThan(leaseMs / 2);

      store.freeze();
      const frozenAt = performance.now();
      const slow = await invalidateMembers(t.db);
      expect(slow.unacked).toBe(0); // no longer counted once its lease passed
      expect(slow.waitedMs).toBeGreaterThan(leaseMs - 500); // it was waited for
      expect(performance.now() - frozenAt).toBeLessThan(leaseMs + 5_000); // bounded: not the 5 s default lease, not forever
      // And by then it had stopped trusting its cache (lease − margin, on its own clock).
      expect(member.valid()).toBe(false);
    } finally {
      store.thaw();
      await member.close();
    }
  });

  it("on the app's store, invalidateAuth clears the app's cache (no stale hit after a hand edit)", async () => {
    expect((await get(s.acme.keys.main)).statusCode).toBe(200);
    await t.db.query(`update accounts set state = 'closed' where id = $1`, [s.acme.id]);
    try {
      await invalidateAuth(t.db);
      expectError(await get(s.acme.keys.main), 403, 'permission', 'account_closed');
    } finally {
      await t.db.query(`update accounts set state = 'active' where id = $1`, [s.acme.id]);
      await invalidateAuth(t.db);
    }
  });

  it('a row changed without invalidateAuth (by hand, by an earlier release) still clears every member on commit', async () => {
    const cache = new AuthCache();
    const member = new AuthCacheMember(t.db, cache, { leaseMs: 60_000, heartbeatMs: 3_600_000 }); // neither lease end nor heartbeat within the test
    try {
      await member.start();
      const hash = hashKey(s.acme.keys.unit); // never revoked by the tests above
      expect((await cache.lookup(t.db, hash))?.revoked_at).toBeNull();
      await t.db.query(`update api_keys set revoked_at = now() where id = (select id from api_keys where hash = $1)`, [hash]);
      // The trigger's NOTIFY arrives after the commit; no heartbeat runs meanwhile (an hour apart).
      let row: AuthRow | null = null;
      for (let i = 0; i < 100 && !row?.revoked_at; i++) {
        await new Promise((r) => setTimeout(r, 50));
        row = await cache.lookup(t.db, hash);
      }
      expect(row?.revoked_at).toBeInstanceOf(Date);
    } finally {
      await t.db.query(`update api_keys set revoked_at = null where hash = $1`, [hashKey(s.acme.keys.unit)]);
      await invalidateAuth(t.db);
      await member.close();
    }
  });
});
