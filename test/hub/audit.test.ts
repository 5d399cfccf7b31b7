// /hub/api/audit: the account's entries newest first, paged, filtered by action and actor; owners
// and admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit, OPERATOR } from '../../src/services/audit/service.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { makeAccount, type TestAccount } from '../cli/support.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const as = (a: TestAccount, role: 'owner' | 'admin' | 'member'): Promise<HubClient> =>
  hubClient(t, { accountId: a.id, userId: a[role], email: `${role}@test.example` });

interface Entry {
  id: string;
  action: string;
  actor: { kind: string; id: string | null; label: string; name: string | null };
  object: { kind: string; id: string; name: string | null };
  detail: Record<string, unknown>;
  at: string;
}

/** An account whose users did something through the hub: a rename, a role change, an invitation. */
async function busyAccount(): Promise<{ a: TestAccount; admin: HubClient }> {
  const a = await makeAccount(t.db);
  const admin = await as(a, 'admin');
  expect((await admin.patch('/hub/api/settings', { name: 'Renamed' })).statusCode).toBe(200);
  expect((await admin.patch(`/hub/api/users/${a.member}`, { role: 'admin' })).statusCode).toBe(200);
  expect((await (await as(a, 'owner')).post('/hub/api/users', { email: 'x@test.example', role: 'member' })).statusCode).toBe(201);
  await t.db.transaction((tx) => recordAudit(tx, { accountId: a.id, actor: OPERATOR, action: 'key.created', objectKind: 'key', objectId: 'k1', detail: { name: 'ci' } }));
  return { a, admin };
}

describe('happy path', () => {
  it('lists every change newest first with its actor, object and detail', async () => {
    const { a, admin } = await busyAccount();
    const res = await admin.get('/hub/api/audit');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as Entry[];
    expect(data.map((e) => e.action)).toEqual(['key.created', 'user.invited', 'user.role_changed', 'account.settings_changed']);
    expect(data[0].actor).toEqual({ kind: 'operator', id: null, label: 'operator (CLI)', name: null });
    expect(data[0].object).toEqual({ kind: 'key', id: 'k1', name: null });
    expect(data[2]).toMatchObject({ actor: { kind: 'user', id: a.admin }, object: { kind: 'user', id: a.member }, detail: { from: 'member', to: 'admin' } });
    expect(data[3].at).toMatch(/Z$/);
    expect(res.json()).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('pages with the cursor, without gaps or repeats', async () => {
    const { admin } = await busyAccount();
    const first = (await admin.get('/hub/api/audit?limit=3')).json();
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const second = (await admin.get(`/hub/api/audit?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    const all = (await admin.get('/hub/api/audit')).json().data.map((e: Entry) => e.id);
    expect([...first.data, ...second.data].map((e: Entry) => e.id)).toEqual(all);
  });

  it('filters by action and by actor (a user id, or operator)', async () => {
    const { a, admin } = await busyAccount();
    const byAction = (await admin.get('/hub/api/audit?action=user.role_changed')).json().data as Entry[];
    expect(byAction.map((e) => e.action)).toEqual(['user.role_changed']);
    const byAdmin = (await admin.get(`/hub/api/audit?actor=${a.admin}`)).json().data as Entry[];
    expect(byAdmin.map((e) => e.action)).toEqual(['user.role_changed', 'account.settings_changed']);
    const byOperator = (await admin.get('/hub/api/audit?actor=operator')).json().data as Entry[];
    expect(byOperator.map((e) => e.action)).toEqual(['key.created']);
  });
});

describe('names', () => {
  it("names each entry's object and actor as they are now, and none once the object is gone", async () => {
    const { a, admin } = await busyAccount();
    const owner = await as(a, 'owner');
    const invited = (await owner.get('/hub/api/users')).json().data.find((u: { email: string }) => u.email === 'x@test.example');
    const before = (await admin.get('/hub/api/audit')).json().data as Entry[];
    expect(before.find((e) => e.action === 'user.invited')!.object).toEqual({ kind: 'user', id: invited.id, name: 'x@test.example' });
    expect(before.find((e) => e.action === 'account.settings_changed')!.object.name).toBe('Renamed');
    const role = before.find((e) => e.action === 'user.role_changed')!;
    expect(role.actor.name).toEqual(expect.any(String));
    expect(role.actor.name).not.toContain('<');
    // Removed, the user is no longer named (the entry keeps its detail), so the hub links nowhere.
    expect((await owner.delete(`/hub/api/users/${invited.id}`)).statusCode).toBe(204);
    const after = (await admin.get('/hub/api/audit?action=user.invited')).json().data as Entry[];
    expect(after[0].object).toEqual({ kind: 'user', id: invited.id, name: null });
  });

  it("never names an object of another account, even by its id", async () => {
    const theirs = await makeAccount(t.db);
    const mine = await makeAccount(t.db);
    await t.db.transaction((tx) => recordAudit(tx, { accountId: mine.id, actor: OPERATOR, action: 'user.removed', objectKind: 'user', objectId: theirs.owner }));
    await t.db.transaction((tx) => recordAudit(tx, { accountId: mine.id, actor: OPERATOR, action: 'account.settings_changed', objectKind: 'account', objectId: theirs.id }));
    const data = (await (await as(mine, 'owner')).get('/hub/api/audit')).json().data as Entry[];
    expect(data.slice(0, 2).map((e) => e.object.name)).toEqual([null, null]);
  });
});

describe('errors', () => {
  it.each([
    ['action=user.danced', 'action'],
    ['actor=someone', 'actor'],
    ['limit=0', 'limit'],
    ['colour=red', 'colour'],
  ])('400 on ?%s', async (query, param) => {
    const { admin } = await busyAccount();
    const res = await admin.get(`/hub/api/audit?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.param).toBe(param);
  });

  it('400 invalid_cursor for a cursor given under other filters', async () => {
    const { admin } = await busyAccount();
    const first = (await admin.get('/hub/api/audit?limit=1')).json();
    const res = await admin.get(`/hub/api/audit?limit=1&action=user.invited&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_cursor');
  });
});

describe('security', () => {
  it('401 without a session; 403 role_forbidden for a member', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/hub/api/audit' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.code).toBe('not_signed_in');
    const a = await makeAccount(t.db);
    const forbidden = await (await as(a, 'member')).get('/hub/api/audit');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error.code).toBe('role_forbidden');
  });

  it("never shows another account's entries, nor takes its cursor", async () => {
    const { admin: theirs } = await busyAccount();
    const mine = await makeAccount(t.db);
    const owner = await as(mine, 'owner');
    expect((await owner.get('/hub/api/audit')).json().data).toEqual([]);
    const cursor = (await theirs.get('/hub/api/audit?limit=1')).json().next_cursor;
    const res = await owner.get(`/hub/api/audit?limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_cursor');
  });
});
