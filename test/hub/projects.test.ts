// Creating a project in the hub (POST /hub/api/projects): a new account starts with none and the
// builders need one. The project comes back as the content list shows it, appears in that list
// and in /v1 GET /projects, starts with the default settings, and is audited in the same
// transaction; a refused body writes nothing. Security: another account never sees it; CSRF,
// a foreign Origin and a lapsed account are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { bearer, expectError, ISO_MS, seed, UUID_RE } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let member: HubClient;
let other: HubClient;

const fixture = (ref: string, extra: Record<string, unknown> = {}) => ({
  ref,
  name: `Account ${ref}`,
  users: [
    { ref: 'owner', email: `owner@${ref}.example`, role: 'owner', name: 'Olivia Owner' },
    { ref: 'member', email: `member@${ref}.example`, role: 'member', name: 'Max Member' },
  ],
  keys: [{ ref: 'main', name: 'reader', scopes: ['content:read'] }],
  ...extra,
});

const count = async (accountId: string, table: 'projects' | 'audit_log') =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table} where account_id = $1`, [accountId]))[0].n;

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'), fixture('lapsed', { subscription: 'ended' }));
  member = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.member, email: 'member@acme.example' });
  other = await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' });
});
afterAll(() => t.close());

describe('creating a project', () => {
  let created: { id: string; name: string; description: string; created_at: string; updated_at: string };

  it('answers 201 with the project as the content list shows it, trimmed', async () => {
    const res = await member.post('/hub/api/projects', { name: '  Newsletter  ', description: ' Weekly digest \n' });
    expect(res.statusCode, res.body).toBe(201);
    created = res.json();
    expect(Object.keys(created).sort()).toEqual(['created_at', 'description', 'id', 'name', 'updated_at']);
    expect(created).toMatchObject({ name: 'Newsletter', description: 'Weekly digest' });
    expect(created.id).toMatch(UUID_RE);
    expect(created.created_at).toMatch(ISO_MS);
    expect(created.updated_at).toBe(created.created_at);
  });

  it('appears in the hub content list, in /v1 GET /projects and GET /projects/{id}', async () => {
    const list = (await member.get('/hub/api/projects')).json();
    expect(list.data).toEqual([created]);
    const v1 = await t.app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(s.acme.keys.main) });
    expect(v1.statusCode, v1.body).toBe(200);
    expect(v1.json().data).toEqual([created]);
    const one = await t.app.inject({ method: 'GET', url: `/v1/projects/${created.id}`, headers: bearer(s.acme.keys.main) });
    expect(one.json()).toEqual(created);
    // Its screen opens, with no items yet.
    const items = (await member.get(`/hub/api/projects/${created.id}/items`)).json();
    expect(items).toMatchObject({ project: created, data: [], has_more: false });
  });

  it('starts with the default settings, shown in the account settings', async () => {
    const settings = (await member.get('/hub/api/settings')).json();
    const mine = settings.projects.find((p: { id: string }) => p.id === created.id);
    expect(mine).toMatchObject({ name: 'Newsletter', sms_consent_required: true, max_automations_per_contact: 5 });
  });

  it('records project.created by the signed-in user', async () => {
    const rows = await t.db.query<{ action: string; actor_kind: string; actor_id: string; object_kind: string; object_id: string; detail: unknown }>(
      `select action, actor_kind, actor_id, object_kind, object_id, detail from audit_log where account_id = $1`,
      [s.acme.id],
    );
    expect(rows).toEqual([
      { action: 'project.created', actor_kind: 'user', actor_id: s.acme.users.member, object_kind: 'project', object_id: created.id, detail: { name: 'Newsletter' } },
    ]);
  });

  it('takes a name alone (the description is empty) and a name of exactly 200 characters', async () => {
    const res = await member.post('/hub/api/projects', { name: 'x'.repeat(200) });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'x'.repeat(200), description: '' });
  });
});

describe('refusals', () => {
  it('refuses a blank, missing, multi-line or too long name, a too long description and an unknown field, writing nothing', async () => {
    const before = { projects: await count(s.acme.id, 'projects'), audit: await count(s.acme.id, 'audit_log') };
    expectError(await member.post('/hub/api/projects', { name: '   ' }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await member.post('/hub/api/projects', { name: '' }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await member.post('/hub/api/projects', { name: 'two\nlines' }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await member.post('/hub/api/projects', { name: 'x'.repeat(201) }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await member.post('/hub/api/projects', { description: 'no name' }), 400, 'invalid_request', 'missing_field', 'name');
    expectError(await member.post('/hub/api/projects', { name: 'Ok', description: 'd'.repeat(2_001) }), 422, 'invalid_request', 'invalid_field', 'description');
    expectError(await member.post('/hub/api/projects', { name: 'Ok', settings: {} }), 422, 'invalid_request', 'unknown_field', 'settings');
    expect({ projects: await count(s.acme.id, 'projects'), audit: await count(s.acme.id, 'audit_log') }).toEqual(before);
  });
});

describe('security', () => {
  it("keeps an account's project to that account", async () => {
    const mine = (await member.post('/hub/api/projects', { name: 'Private plans' })).json();
    expect((await other.get('/hub/api/projects')).json().data).toEqual([]);
    expectError(await other.get(`/hub/api/projects/${mine.id}/items`), 404, 'not_found', 'resource_not_found');
    const v1 = await t.app.inject({ method: 'GET', url: `/v1/projects/${mine.id}`, headers: bearer(s.other.keys.main) });
    expect(v1.statusCode).toBe(404);
    // Another account's project is made in that account only.
    const theirs = (await other.post('/hub/api/projects', { name: 'Theirs' })).json();
    expect((await member.get('/hub/api/projects')).json().data.map((p: { id: string }) => p.id)).not.toContain(theirs.id);
    expect(await count(s.other.id, 'projects')).toBe(1);
  });

  it('refuses a write without the CSRF token or from a foreign Origin, and a lapsed account', async () => {
    const payload = { name: 'Sneaky' };
    expectError(await member.request({ method: 'POST', url: '/hub/api/projects', payload, headers: { 'x-csrf-token': 'wrong' } }), 403, 'permission', 'csrf_failed');
    expectError(await member.request({ method: 'POST', url: '/hub/api/projects', payload, headers: { origin: 'https://evil.example' } }), 403, 'permission', 'csrf_failed');
    const lapsed = await hubClient(t, { accountId: s.lapsed.id, userId: s.lapsed.users.member, email: 'member@lapsed.example' });
    expectError(await lapsed.post('/hub/api/projects', payload), 403, 'permission', 'subscription_inactive');
    expect(await count(s.lapsed.id, 'projects')).toBe(0);
    expect((await member.get('/hub/api/projects')).json().data.map((p: { name: string }) => p.name)).not.toContain('Sneaky');
  });
});
