// An account's state in the hub (issue 23): a closed account's sessions end at once (signed out
// when it was the session's only account; "this account has been closed" and the picker when the
// session has others); a suspended account, or one whose plan lapsed or ended, is read-only:
// every read route answers, every change is refused with the catalogue's 403 in words a person
// reads. The state is read on every request: a change made by another process, or by hand in the
// database, acts on the next request (two apps over one store stand for two processes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { configWith } from '../../src/config.js';
import { CSRF_HEADER, SESSION_COOKIE } from '../../src/domain/hub.js';
import { hubRoutesOf, type HubRouteEntry } from '../../src/hub/plugin.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { createApp } from '../../src/server.js';
import { setAccount } from '../../src/services/accounts/service.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, HUB_ORIGIN, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let routes: readonly HubRouteEntry[];
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const urlOf = (r: HubRouteEntry) => r.url.replace(/:(\w+)/g, () => uuidv7());
const accountRoute = (r: HubRouteEntry) => r.access === 'member' || r.access === 'admin';

beforeAll(async () => {
  t = await testApp();
  routes = hubRoutesOf(t.app);
});
afterAll(() => t?.close());

let n = 0;
/** A fresh account with an owner, and the owner's session in it. */
async function ownerOfNewAccount(): Promise<{ accountId: string; userId: string; owner: HubClient }> {
  n += 1;
  const ref = `acct${n}`;
  const s = await seed(t.db, { ref, name: `Account ${n}`, users: [{ ref: 'owner', email: `owner${n}@acme.example`, role: 'owner', password: null, name: '' }], keys: [] });
  const accountId = s[ref].id;
  const userId = s[ref].users.owner;
  return { accountId, userId, owner: await hubClient(t, { accountId, userId, email: `owner${n}@acme.example` }) };
}

/** Every route matching `which`, checked; the failures of all of them named at once. */
async function everyRoute(which: (r: HubRouteEntry) => boolean, check: (r: HubRouteEntry) => Promise<void>): Promise<number> {
  const failures: string[] = [];
  const picked = routes.filter(which);
  for (const r of picked) {
    try {
      await check(r);
    } catch (err) {
      failures.push(`${r.method} ${r.url}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  expect(failures).toEqual([]);
  return picked.length;
}
const codeOf = (res: LightMyRequestResponse): string | null => (res.statusCode >= 400 ? (res.json().error?.code ?? null) : null);

describe('a closed account', () => {
  it('ends the session of someone with no other account at once: the next request is signed out', async () => {
    const a = await ownerOfNewAccount();
    expect((await a.owner.get('/hub/api/keys')).statusCode).toBe(200);
    await setAccount(t.db, a.accountId, { state: 'closed' });
    expectError(await a.owner.get('/hub/api/keys'), 401, 'authentication', 'not_signed_in');
    expectError(await a.owner.get('/hub/api/session'), 401, 'authentication', 'not_signed_in');
    expectError(await a.owner.delete('/hub/api/session'), 401, 'authentication', 'not_signed_in');
    // The session row itself is gone.
    expect(await t.db.query(`select 1 from hub_sessions where $1::uuid = any (user_ids)`, [a.userId])).toEqual([]);
  });

  it('answers every account route of a session with other accounts "closed" (403 account_closed), then offers the others', async () => {
    const s = await seed(
      t.db,
      { ref: 'one', name: 'Account One', users: [{ ref: 'max', email: 'max@both.example', role: 'owner', password: null, name: '' }], keys: [] },
      { ref: 'two', name: 'Account Two', users: [{ ref: 'max', email: 'max@both.example', role: 'member', password: null, name: '' }], keys: [] },
    );
    const max = await hubClient(t, { accountId: s.one.id, userId: s.one.users.max, email: 'max@both.example', userIds: [s.one.users.max, s.two.users.max] });
    expect((await max.get('/hub/api/session')).json().closed_account).toBeNull();
    await setAccount(t.db, s.one.id, { state: 'closed' });
    const count = await everyRoute(accountRoute, async (r) => {
      const res = await max.request({ method: r.method as 'GET', url: urlOf(r) });
      const e = expectError(res, 403, 'permission', 'account_closed');
      expect(e.message).toMatch(/has been closed.*Choose another of your accounts/);
    });
    expect(count).toBeGreaterThan(20);
    const me = (await max.get('/hub/api/session')).json();
    expect(me.account).toBeNull();
    expect(me.closed_account).toBe('Account One');
    expect(me.accounts.map((x: { account_id: string }) => x.account_id)).toEqual([s.two.id]);
    expectError(await max.put('/hub/api/session/account', { account_id: s.one.id }), 404, 'not_found', 'resource_not_found');
    const pick = await max.put('/hub/api/session/account', { account_id: s.two.id });
    expect(pick.statusCode, pick.body).toBe(200);
    expect(pick.json()).toMatchObject({ account: { account_id: s.two.id, state: 'active', subscription: 'active' }, closed_account: null });
    expect((await max.get('/hub/api/contacts')).statusCode).toBe(200);
  });
});

for (const [what, change, code] of [
  ['suspended', { state: 'suspended' }, 'account_suspended'],
  ['whose plan lapsed', { subscription: 'lapsed' }, 'subscription_inactive'],
  ['whose plan ended', { subscription: 'ended' }, 'subscription_inactive'],
] as const) {
  describe(`an account ${what}`, () => {
    it('is read-only: every read answers, every change is refused with its 403 in words a person reads', async () => {
      const a = await ownerOfNewAccount();
      await setAccount(t.db, a.accountId, change);
      const me = (await a.owner.get('/hub/api/session')).json();
      expect(me.account).toMatchObject({ account_id: a.accountId, ...change });
      const reads = await everyRoute(
        (r) => accountRoute(r) && SAFE.has(r.method),
        async (r) => expect(codeOf(await a.owner.get(urlOf(r)))).not.toBe(code),
      );
      expect(reads).toBeGreaterThan(10);
      const writes = await everyRoute(
        (r) => accountRoute(r) && !SAFE.has(r.method),
        async (r) => {
          const e = expectError(await a.owner.request({ method: r.method as 'POST', url: urlOf(r), payload: {} }), 403, 'permission', code);
          expect(e.message).toMatch(/read-only.*Ask the operator/);
        },
      );
      expect(writes).toBeGreaterThan(10);
      // Signing out is no change to the account.
      expect((await a.owner.delete('/hub/api/session')).statusCode).toBe(204);
    });
  });
}

describe('a state changed by another process, or by hand in the database', () => {
  it('acts on the next hub request of every process', async () => {
    const a = await ownerOfNewAccount();
    const other = await createApp(configWith({ rateLimitStore: 'memory' }), t.db);
    try {
      // The session's cookie, CSRF token and Origin, sent to the other process.
      const viaOther = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
        other.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: `${SESSION_COOKIE}=${a.owner.token}`, [CSRF_HEADER]: a.owner.csrf, origin: HUB_ORIGIN } });
      expect((await viaOther('PATCH', '/hub/api/settings', { name: 'Renamed' })).statusCode).toBe(200);
      await t.db.query(`update accounts set state = 'suspended' where id = $1`, [a.accountId]);
      expectError(await viaOther('PATCH', '/hub/api/settings', { name: 'Again' }), 403, 'permission', 'account_suspended');
      expect((await viaOther('GET', '/hub/api/settings')).statusCode).toBe(200);
      await t.db.query(`update accounts set state = 'active' where id = $1`, [a.accountId]);
      expect((await viaOther('PATCH', '/hub/api/settings', { name: 'Back' })).statusCode).toBe(200);
      await t.db.query(`update accounts set state = 'closed' where id = $1`, [a.accountId]);
      expectError(await other.inject({ method: 'GET', url: '/hub/api/settings', headers: { cookie: `${SESSION_COOKIE}=${a.owner.token}` } }), 401, 'authentication', 'not_signed_in');
      expectError(await a.owner.get('/hub/api/settings'), 401, 'authentication', 'not_signed_in');
    } finally {
      await other.close();
    }
  });
});
