// /hub/api/settings: members read, owners and admins change the name and project settings; the
// operator's fields (tier, limits, subscription, state) are read-only (422 unknown_field).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/lib/ids.js';
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

async function withProject(a: TestAccount, settings: Record<string, unknown> = {}): Promise<string> {
  const id = uuidv7();
  await t.db.query(`insert into projects (account_id, id, name, settings) values ($1, $2, 'Website', $3::jsonb)`, [a.id, id, JSON.stringify(settings)]);
  return id;
}

const audit = (accountId: string) =>
  t.db.query<{ action: string; actor_id: string; object_id: string; detail: Record<string, unknown> }>(
    `select action, actor_id, object_id, detail from audit_log where account_id = $1 order by at, id`,
    [accountId],
  );

describe('happy path', () => {
  it('a member reads the settings: the account, its effective limits and each project with defaults filled in', async () => {
    const a = await makeAccount(t.db, 'business');
    const p1 = await withProject(a);
    const p2 = await withProject(a, { sms_consent_required: false, max_automations_per_contact: 2 });
    const res = await (await as(a, 'member')).get('/hub/api/settings');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account).toMatchObject({
      id: a.id, name: 'Test account', tier: 'business', state: 'active', subscription: 'active',
      limits: { requests_per_minute: 300, run_starts_per_minute: 30, concurrent_runs: 10 },
    });
    expect(res.json().projects).toEqual([
      { id: p1, name: 'Website', sms_consent_required: true, max_automations_per_contact: 5 },
      { id: p2, name: 'Website', sms_consent_required: false, max_automations_per_contact: 2 },
    ]);
  });

  it('an admin renames the account, audited with from and to; the same name again records nothing', async () => {
    const a = await makeAccount(t.db);
    const admin = await as(a, 'admin');
    const res = await admin.patch('/hub/api/settings', { name: '  Acme Ltd ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().account.name).toBe('Acme Ltd');
    expect(await audit(a.id)).toEqual([
      { action: 'account.settings_changed', actor_id: a.admin, object_id: a.id, detail: { name: { from: 'Test account', to: 'Acme Ltd' } } },
    ]);
    expect((await admin.patch('/hub/api/settings', { name: 'Acme Ltd' })).statusCode).toBe(200);
    expect(await audit(a.id)).toHaveLength(1);
  });

  it("an owner changes a project's settings, which the store keeps for the engine to read", async () => {
    const a = await makeAccount(t.db);
    const p = await withProject(a, { other: 'kept' });
    const res = await (await as(a, 'owner')).patch(`/hub/api/settings/projects/${p}`, { sms_consent_required: false, max_automations_per_contact: 9 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: p, name: 'Website', sms_consent_required: false, max_automations_per_contact: 9 });
    const [row] = await t.db.query<{ settings: Record<string, unknown> }>(`select settings from projects where id = $1`, [p]);
    expect(row.settings).toEqual({ other: 'kept', sms_consent_required: false, max_automations_per_contact: 9 });
    expect((await audit(a.id)).at(-1)).toMatchObject({
      action: 'project.settings_changed', object_id: p,
      detail: { project: 'Website', sms_consent_required: { from: true, to: false }, max_automations_per_contact: { from: 5, to: 9 } },
    });
  });
});

describe('errors', () => {
  it.each(['tier', 'state', 'subscription', 'credit_micros', 'requests_per_minute'])('422 unknown_field for the operator field %s', async (field) => {
    const a = await makeAccount(t.db);
    const res = await (await as(a, 'owner')).patch('/hub/api/settings', { name: 'X', [field]: field === 'credit_micros' ? 1 : 'enterprise' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'unknown_field', param: field });
    expect((await t.db.query<{ name: string; tier: string }>(`select name, tier from accounts where id = $1`, [a.id]))[0]).toEqual({ name: 'Test account', tier: 'team' });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'two\nlines' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
  ])('422 invalid_field for %j', async (body, param) => {
    const a = await makeAccount(t.db);
    const res = await (await as(a, 'owner')).patch('/hub/api/settings', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'invalid_field', param });
  });

  it.each([
    [{ max_automations_per_contact: 0 }, 'invalid_field', 'max_automations_per_contact'],
    [{ sms_consent_required: 'false' }, 'invalid_field', 'sms_consent_required'],
    [{ tier: 'solo' }, 'unknown_field', 'tier'],
  ])('422 on project settings %j', async (body, code, param) => {
    const a = await makeAccount(t.db);
    const p = await withProject(a);
    const res = await (await as(a, 'owner')).patch(`/hub/api/settings/projects/${p}`, body);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code, param });
  });
});

describe('security', () => {
  it('401 not_signed_in without a session', async () => {
    for (const [method, url] of [['GET', '/hub/api/settings'], ['PATCH', '/hub/api/settings'], ['PATCH', `/hub/api/settings/projects/${uuidv7()}`]] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('not_signed_in');
    }
  });

  it('403 role_forbidden for a member changing anything', async () => {
    const a = await makeAccount(t.db);
    const p = await withProject(a);
    const member = await as(a, 'member');
    for (const res of [await member.patch('/hub/api/settings', { name: 'Mine' }), await member.patch(`/hub/api/settings/projects/${p}`, { sms_consent_required: false })]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('role_forbidden');
    }
    expect(await audit(a.id)).toHaveLength(0);
  });

  it("404 for another account's project, which stays as it was; its projects are not listed", async () => {
    const a = await makeAccount(t.db);
    const b = await makeAccount(t.db);
    const theirs = await withProject(b);
    const owner = await as(a, 'owner');
    const res = await owner.patch(`/hub/api/settings/projects/${theirs}`, { sms_consent_required: false });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('resource_not_found');
    expect((await t.db.query<{ settings: object }>(`select settings from projects where id = $1`, [theirs]))[0].settings).toEqual({});
    expect((await owner.get('/hub/api/settings')).json().projects).toEqual([]);
  });

  it('403 csrf_failed without the token or from a foreign Origin', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    const noToken = await owner.request({ method: 'PATCH', url: '/hub/api/settings', payload: { name: 'X' }, headers: { 'x-csrf-token': 'wrong' } });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error.code).toBe('csrf_failed');
    const foreign = await owner.request({ method: 'PATCH', url: '/hub/api/settings', payload: { name: 'X' }, headers: { origin: 'http://localhost:81' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('csrf_failed');
  });
});
