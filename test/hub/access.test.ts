// The security matrix of the hub's API, over every route the app registers under /hub/api (read
// from the hub plugin's route table, so routes any area adds later are covered without listing
// them here), each by the access it declares:
//   - not public: no session → 401 not_signed_in;
//   - a state change: without the session's CSRF token, without an Origin or with a foreign
//     one → 403 csrf_failed (public routes: no or a foreign Origin);
//   - a valid session cookie sent to a host name that is not the hub's (DNS rebinding) → 401;
//   - admin: a member → 403 role_forbidden;
//   - member or admin: signed in without an account picked → 409 account_not_chosen.
// And the table is the OpenAPI document's hub tag, both ways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { CSRF_HEADER, HUB_ACCESS } from '../../src/domain/hub.js';
import { hubRoutesOf, type HubRouteEntry } from '../../src/hub/plugin.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, HUB_ORIGIN, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let routes: readonly HubRouteEntry[];
let owner: HubClient;
let member: HubClient;
let unpicked: HubClient;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const FOREIGN = 'https://evil.example';
/** A concrete URL for a route pattern: any id will do, the hook refuses before params are read. */
const urlOf = (r: HubRouteEntry) => r.url.replace(/:(\w+)/g, () => uuidv7());
const label = (r: HubRouteEntry) => `${r.method} ${r.url} (${r.access})`;

/** Runs check on every route matching `which`, collecting every failure so one run names them all. */
async function everyRoute(which: (r: HubRouteEntry) => boolean, check: (r: HubRouteEntry) => Promise<void>): Promise<number> {
  const picked = routes.filter(which);
  const failures: string[] = [];
  for (const r of picked) {
    try {
      await check(r);
    } catch (err) {
      failures.push(`${label(r)}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  expect(failures).toEqual([]);
  return picked.length;
}

const expectCode = (res: LightMyRequestResponse, status: number, type: string, code: string): void => {
  expectError(res, status, type, code);
};

beforeAll(async () => {
  t = await testApp();
  const s = await seed(t.db, {
    ref: 'acme',
    name: 'Acme',
    users: [
      { ref: 'owner', email: 'owner@acme.example', role: 'owner', password: null, name: '' },
      { ref: 'mia', email: 'mia@acme.example', role: 'member', password: null, name: '' },
    ],
    keys: [],
  });
  const acme = s.acme;
  routes = hubRoutesOf(t.app);
  owner = await hubClient(t, { accountId: acme.id, userId: acme.users.owner, email: 'owner@acme.example' });
  member = await hubClient(t, { accountId: acme.id, userId: acme.users.mia, email: 'mia@acme.example' });
  unpicked = await hubClient(t, { accountId: null, userId: null, email: 'owner@acme.example', userIds: [acme.users.owner] });
});
afterAll(() => t?.close());

describe('the hub route table', () => {
  it('holds every route, each with a declared access, and matches the OpenAPI document\'s hub tag', async () => {
    expect(routes.length).toBeGreaterThan(5);
    for (const r of routes) expect(HUB_ACCESS, label(r)).toContain(r.access);
    // Sign-in and set-up are public, and so are reachable without a session.
    expect(routes.find((r) => r.operationId === 'hubSignIn')?.access).toBe('public');
    expect(routes.find((r) => r.operationId === 'hubSetUp')?.access).toBe('public');
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented: string[] = [];
    const access = new Map(routes.map((r) => [`${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`, r.access]));
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, { tags?: string[]; security?: unknown }>>)) {
      for (const [method, op] of Object.entries(item)) {
        const isHub = p.startsWith('/hub/api/');
        expect(op.tags?.includes('hub') ?? false, `${method} ${p}`).toBe(isHub);
        if (!isHub) continue;
        const key = `${method.toUpperCase()} ${p}`;
        documented.push(key);
        // Documented with the session cookie (public routes: no credential), never /v1's key.
        expect(op.security, key).toEqual(access.get(key) === 'public' ? [] : [{ hubSession: [] }]);
      }
    }
    const registered = routes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.sort()).toEqual(documented.sort());
    expect(new Set(routes.map((r) => r.operationId)).size).toBe(routes.length);
    for (const r of routes) expect(r.operationId, label(r)).toMatch(/^hub[A-Z]/);
  });
});

describe('every hub route', () => {
  it('answers 401 not_signed_in without a session (every route but the public ones)', async () => {
    const n = await everyRoute(
      (r) => r.access !== 'public',
      async (r) => {
        expectCode(await t.app.inject({ method: r.method as 'GET', url: urlOf(r), headers: { origin: HUB_ORIGIN } }), 401, 'authentication', 'not_signed_in');
        // A cookie that names no session is no session.
        const bogus = await t.app.inject({ method: r.method as 'GET', url: urlOf(r), headers: { origin: HUB_ORIGIN, cookie: `sb_session=${'A'.repeat(43)}` } });
        expectCode(bogus, 401, 'authentication', 'not_signed_in');
      },
    );
    expect(n).toBeGreaterThan(0);
  });

  it('refuses a state change without the CSRF token, or from no or a foreign Origin (403 csrf_failed)', async () => {
    const n = await everyRoute(
      (r) => !SAFE.has(r.method),
      async (r) => {
        const url = urlOf(r);
        const method = r.method as 'POST';
        if (r.access === 'public') {
          expectCode(await t.app.inject({ method, url }), 403, 'permission', 'csrf_failed');
          expectCode(await t.app.inject({ method, url, headers: { origin: FOREIGN } }), 403, 'permission', 'csrf_failed');
          return;
        }
        expectCode(await owner.request({ method, url, headers: { [CSRF_HEADER]: '' } }), 403, 'permission', 'csrf_failed');
        expectCode(await owner.request({ method, url, headers: { [CSRF_HEADER]: owner.csrf.slice(1) + 'x' } }), 403, 'permission', 'csrf_failed');
        expectCode(await owner.request({ method, url, headers: { [CSRF_HEADER]: member.csrf } }), 403, 'permission', 'csrf_failed');
        expectCode(await owner.request({ method, url, headers: { origin: FOREIGN } }), 403, 'permission', 'csrf_failed');
        expectCode(await owner.request({ method, url, headers: { origin: '' } }), 403, 'permission', 'csrf_failed');
      },
    );
    expect(n).toBeGreaterThan(0);
  });

  it('takes a valid session cookie sent to a foreign host name for none (401), and refuses a rebound page\'s state change (403)', async () => {
    // DNS rebinding: the page names itself as Host and as Origin; neither makes it ours.
    const rebound = { host: 'rebind.attacker.example:8080', origin: 'http://rebind.attacker.example:8080' };
    const n = await everyRoute(
      (r) => r.access !== 'public',
      async (r) => expectCode(await owner.request({ method: r.method as 'GET', url: urlOf(r), headers: rebound }), 401, 'authentication', 'not_signed_in'),
    );
    expect(n).toBeGreaterThan(0);
    await everyRoute(
      (r) => r.access === 'public' && !SAFE.has(r.method),
      async (r) => expectCode(await t.app.inject({ method: r.method as 'POST', url: urlOf(r), headers: rebound }), 403, 'permission', 'csrf_failed'),
    );
  });

  it('refuses a member on owner/admin routes (403 role_forbidden)', async () => {
    await everyRoute(
      (r) => r.access === 'admin',
      async (r) => expectCode(await member.request({ method: r.method as 'GET', url: urlOf(r) }), 403, 'permission', 'role_forbidden'),
    );
  });

  it('refuses account routes until an account is picked (409 account_not_chosen)', async () => {
    const n = await everyRoute(
      (r) => r.access === 'member' || r.access === 'admin',
      async (r) => expectCode(await unpicked.request({ method: r.method as 'GET', url: urlOf(r) }), 409, 'conflict', 'account_not_chosen'),
    );
    expect(n).toBeGreaterThan(0);
  });

  it('lets the right caller through the hook (reads as the owner are none of the refusals above)', async () => {
    const refusals = new Set(['not_signed_in', 'csrf_failed', 'role_forbidden', 'account_not_chosen']);
    await everyRoute(
      (r) => r.method === 'GET',
      async (r) => {
        const res = await owner.get(urlOf(r));
        const code = res.statusCode >= 400 ? res.json().error?.code : null;
        expect(refusals.has(code), `${res.statusCode} ${code}`).toBe(false);
      },
    );
  });
});
