// GET/PUT /hub/api/getting-started: the home screen's checklist, by intent: each step turns done as
// the account gets its first project, key, workflow, automation and contact (and real email with
// the smtp transport); members are not asked for a key; hiding is per person; security.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { makeAccount, type TestAccount } from '../cli/support.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const as = (a: TestAccount, role: 'owner' | 'admin' | 'member', app: TestApp = t): Promise<HubClient> =>
  hubClient(app, { accountId: a.id, userId: a[role], email: `${role}@test.example` });

type Step = { key: string; done: boolean };
const doneOf = (body: { steps: Step[] }) => Object.fromEntries(body.steps.map((s) => [s.key, s.done]));

describe('happy path', () => {
  it('a fresh account has nothing done; each first thing made through the hub ticks its step', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    const fresh = await owner.get('/hub/api/getting-started');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(fresh.json()).toEqual({
      steps: ['project', 'api_key', 'workflow', 'automation', 'contact', 'email'].map((key) => ({ key, done: false })),
      complete: false,
      hidden: false,
      email_transport: 'outbox',
    });

    const project = (await owner.post('/hub/api/projects', { name: 'Blog' })).json();
    expect((await owner.post('/hub/api/keys', { name: 'Site', scopes: [] })).statusCode).toBe(201);
    expect((await owner.post('/hub/api/workflows', { name: 'W', project_id: project.id })).statusCode).toBe(201);
    const auto = await owner.post('/hub/api/automations', {
      project_id: project.id, name: 'A', trigger: { type: 'manual', label: 'By hand', config: {} }, steps: [],
    });
    expect(auto.statusCode, auto.body).toBe(201);
    expect((await owner.post('/hub/api/contacts', { email: 'ann@example.org' })).statusCode).toBe(201);

    const after = (await owner.get('/hub/api/getting-started')).json();
    expect(doneOf(after)).toEqual({ project: true, api_key: true, workflow: true, automation: true, contact: true, email: false });
    // Real email is the operator's: with the outbox transport the list is never complete.
    expect(after.complete).toBe(false);
  });

  it('with the smtp transport the email step is done, and a member (no key step) can see it complete', async () => {
    const smtp = await testApp({ delivery: { ...t.config.delivery, emailTransport: 'smtp', smtpUrl: 'smtp://127.0.0.1:2525' } });
    try {
      const a = await makeAccount(smtp.db);
      const member = await as(a, 'member', smtp);
      const project = (await member.post('/hub/api/projects', { name: 'P' })).json();
      await member.post('/hub/api/workflows', { name: 'W', project_id: project.id });
      await member.post('/hub/api/automations', { project_id: project.id, name: 'A', trigger: { type: 'manual', label: 'x', config: {} }, steps: [] });
      await member.post('/hub/api/contacts', { email: 'bo@example.org' });
      const body = (await member.get('/hub/api/getting-started')).json();
      expect(body.steps.map((s: Step) => s.key)).toEqual(['project', 'workflow', 'automation', 'contact', 'email']);
      expect(body).toMatchObject({ complete: true, email_transport: 'smtp' });
      // The owner is still asked for a key.
      const owner = (await (await as(a, 'owner', smtp)).get('/hub/api/getting-started')).json();
      expect(doneOf(owner).api_key).toBe(false);
      expect(owner.complete).toBe(false);
    } finally {
      await smtp.close();
    }
  });

  it('only live rows count: a revoked key, a deleted workflow and an archived contact do not', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    const key = (await owner.post('/hub/api/keys', { name: 'K', scopes: [] })).json();
    const wf = (await owner.post('/hub/api/workflows', { name: 'W' })).json();
    const contact = (await owner.post('/hub/api/contacts', { email: 'cy@example.org' })).json();
    expect(doneOf((await owner.get('/hub/api/getting-started')).json())).toMatchObject({ api_key: true, workflow: true, contact: true });
    await t.db.query(`update api_keys set revoked_at = now() where id = $1`, [key.key.id]);
    expect((await owner.delete(`/hub/api/workflows/${wf.id}`)).statusCode).toBe(200);
    await t.db.query(`update contacts set archived_at = now() where id = $1`, [contact.id]);
    expect(doneOf((await owner.get('/hub/api/getting-started')).json())).toMatchObject({ api_key: false, workflow: false, contact: false });
  });

  it('hiding is kept per person: hidden for the admin who hid it, still shown to the member; shown again on request', async () => {
    const a = await makeAccount(t.db);
    const admin = await as(a, 'admin');
    const hid = await admin.put('/hub/api/getting-started', { hidden: true });
    expect(hid.statusCode, hid.body).toBe(200);
    expect(hid.json().hidden).toBe(true);
    // A new session (another browser) of the same person still has it hidden.
    expect((await (await as(a, 'admin')).get('/hub/api/getting-started')).json().hidden).toBe(true);
    expect((await (await as(a, 'member')).get('/hub/api/getting-started')).json().hidden).toBe(false);
    expect((await admin.put('/hub/api/getting-started', { hidden: false })).json().hidden).toBe(false);
  });
});

describe('errors and hostile input', () => {
  it.each([
    ['no body', undefined],
    ['not a boolean', { hidden: 'yes' }],
    ['an unknown field', { hidden: true, account_id: '0190a8a0-0000-7000-8000-000000000000' }],
    ['a missing field', {}],
  ])('PUT with %s is refused and changes nothing', async (_, body) => {
    const a = await makeAccount(t.db);
    const member = await as(a, 'member');
    const res = await member.put('/hub/api/getting-started', body);
    expect([400, 415, 422]).toContain(res.statusCode);
    expect((await member.get('/hub/api/getting-started')).json().hidden).toBe(false);
  });
});

describe('security', () => {
  it('signed out: 401 on both', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/hub/api/getting-started' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: '/hub/api/getting-started', payload: { hidden: true } })).statusCode).toBe(401);
  });

  it('PUT without the CSRF token is 403 and hides nothing', async () => {
    const a = await makeAccount(t.db);
    const member = await as(a, 'member');
    const res = await member.request({ method: 'PUT', url: '/hub/api/getting-started', payload: { hidden: true }, headers: { 'x-csrf-token': 'wrong' } });
    expect(res.statusCode).toBe(403);
    expect((await member.get('/hub/api/getting-started')).json().hidden).toBe(false);
  });

  it("another account's rows never count, and hiding never reaches another account", async () => {
    const mine = await makeAccount(t.db);
    const other = await makeAccount(t.db);
    const theirs = await as(other, 'owner');
    await theirs.post('/hub/api/projects', { name: 'Theirs' });
    await theirs.post('/hub/api/contacts', { email: 'dee@example.org' });
    await theirs.put('/hub/api/getting-started', { hidden: true });
    const body = (await (await as(mine, 'owner')).get('/hub/api/getting-started')).json();
    expect(doneOf(body)).toMatchObject({ project: false, contact: false });
    expect(body.hidden).toBe(false);
  });
});
