// /hub/api/automations and /hub/api/automation-runs/{id}/stop: the list with /v1's summary, an
// automation's page with its runs per contact (status_label, paging, status filter), publish,
// pause and resume by the services' rules with the hub's codes, stopping a contact's run; each
// move audited; no session, CSRF, another account's ids, a lapsed account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { HUB_ORIGIN } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';
import { auditOf, audienceWorld, expectCsrfRefused, insertRun, type World } from './audience-support.js';

let t: TestApp;
let w: World;
let a: Record<string, string>;

beforeAll(async () => {
  t = await testApp();
  w = await audienceWorld(t);
  a = w.s.acme.automations;
});
afterAll(() => t?.close());

const base = (id: string) => `/hub/api/automations/${id}`;

describe('GET /hub/api/automations', () => {
  it("lists the account's automations with /v1's summary, for a member", async () => {
    await insertRun(t, w.s.acme.id, a.welcome, w.s.acme.contacts.ann, 'waiting');
    await insertRun(t, w.s.acme.id, a.welcome, w.s.acme.contacts.cy, 'succeeded');
    const res = await w.member.get('/hub/api/automations');
    expect(res.statusCode, res.body).toBe(200);
    const byName = Object.fromEntries(res.json().data.map((x: { name: string }) => [x.name, x]));
    expect(Object.keys(byName).sort()).toEqual(['Drafty', 'Empty', 'Held', 'Welcome']);
    expect(byName.Welcome).toMatchObject({ status: 'published', published_version: 1, enrollments: { total: 2, active: 1, completed: 1 }, sends: ['email'] });
    expect(byName.Drafty).toMatchObject({ status: 'draft', published_version: 0 });
    expect(res.body).not.toContain('Hello {{first_name}}');
  });

  it('filters by status and pages; refuses a bad status; needs a session', async () => {
    const drafts = (await w.member.get('/hub/api/automations?status=draft')).json().data.map((x: { name: string }) => x.name).sort();
    expect(drafts).toEqual(['Drafty', 'Empty']);
    const first = (await w.member.get('/hub/api/automations?limit=3')).json();
    expect(first).toMatchObject({ has_more: true });
    expect((await w.member.get(`/hub/api/automations?limit=3&cursor=${first.next_cursor}`)).json().data).toHaveLength(1);
    expectError(await w.member.get('/hub/api/automations?status=live'), 400, 'invalid_request', 'invalid_parameter', 'status');
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/automations' }), 401, 'authentication', 'not_signed_in');
    expect((await w.other.get('/hub/api/automations')).json().data).toEqual([]);
  });
});

describe('GET /hub/api/automations/{id}', () => {
  it('shows the summary and its runs per contact, newest first, in Run history words', async () => {
    const failed = await insertRun(t, w.s.acme.id, a.held, w.s.acme.contacts.bob, 'failed');
    const skipped = await insertRun(t, w.s.acme.id, a.held, w.s.acme.contacts.ann, 'skipped');
    const res = await w.member.get(base(a.held));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.automation).toMatchObject({ id: a.held, name: 'Held', status: 'paused' });
    expect(body.runs.data.map((r: { id: string }) => r.id)).toEqual([skipped, failed]);
    expect(body.runs.data[0]).toMatchObject({ contact: { id: w.s.acme.contacts.ann, name: 'Ann Lee' }, status_label: 'Did not meet the Run only if criteria' });
    expect(body.runs.data[1]).toMatchObject({ status: 'failed', status_label: 'Failed' });
    const onlyFailed = (await w.member.get(`${base(a.held)}?status=failed`)).json();
    expect(onlyFailed.runs.data.map((r: { id: string }) => r.id)).toEqual([failed]);
    const paged = (await w.member.get(`${base(a.held)}?limit=1`)).json();
    expect(paged.runs).toMatchObject({ has_more: true });
    const next = (await w.member.get(`${base(a.held)}?limit=1&cursor=${paged.runs.next_cursor}`)).json();
    expect(next.runs.data.map((r: { id: string }) => r.id)).toEqual([failed]);
    // The cursor is bound to this automation.
    expectError(await w.member.get(`${base(a.welcome)}?limit=1&cursor=${paged.runs.next_cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('answers 404 for another account’s automation and an unknown id', async () => {
    expectError(await w.other.get(base(a.held)), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.get(base('0192f0c4-6a1e-7c3b-9a51-3f0e8d2b4c17')), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.get(base('nope')), 400, 'invalid_request', 'invalid_id', 'id');
  });
});

describe('publish, pause, resume', () => {
  it('publishes a draft (audited), then refuses to publish it again unchanged', async () => {
    const res = await w.member.post(`${base(a.drafty)}/publish`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: a.drafty, status: 'published', published_version: 1, has_unpublished_changes: false });
    expect(await auditOf(t, w.s.acme.id, a.drafty)).toEqual([{ action: 'automation.published', actor_label: 'adam@acme.example', detail: { version: 1 } }]);
    const again = expectError(await w.member.post(`${base(a.drafty)}/publish`, {}), 409, 'conflict', 'automation_status_conflict');
    expect(again.message).toMatch(/nothing to publish/);
  });

  it('refuses to publish a draft without a trigger or steps (422 automation_not_publishable)', async () => {
    const res = expectError(await w.member.post(`${base(a.empty)}/publish`, {}), 422, 'invalid_request', 'automation_not_publishable');
    expect(res.message).toMatch(/trigger/);
    expect((await w.member.get(base(a.empty))).json().automation.status).toBe('draft');
  });

  it('pauses a published automation and resumes it; each audited; the wrong move is 409', async () => {
    const paused = await w.owner.post(`${base(a.welcome)}/pause`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().status).toBe('paused');
    expectError(await w.owner.post(`${base(a.welcome)}/pause`), 409, 'conflict', 'automation_status_conflict');
    const resumed = await w.owner.post(`${base(a.welcome)}/resume`);
    expect(resumed.json().status).toBe('published');
    expectError(await w.owner.post(`${base(a.welcome)}/resume`), 409, 'conflict', 'automation_status_conflict');
    expectError(await w.owner.post(`${base(a.empty)}/resume`), 409, 'conflict', 'automation_status_conflict');
    const actions = (await auditOf(t, w.s.acme.id, a.welcome)).map((e) => e.action);
    expect(actions).toEqual(['automation.paused', 'automation.resumed']);
  });

  it('refuses another account, no CSRF, a foreign origin, a lapsed account, no session', async () => {
    expectError(await w.other.post(`${base(a.held)}/resume`), 404, 'not_found', 'resource_not_found');
    await expectCsrfRefused(w.member, 'POST', `${base(a.held)}/resume`, {});
    const lapsedAutomation = '0192f0c4-6a1e-7c3b-9a51-3f0e8d2b4c17';
    expectError(await w.lapsed.post(`${base(lapsedAutomation)}/pause`), 403, 'permission', 'subscription_inactive');
    expectError(await t.app.inject({ method: 'POST', url: `${base(a.held)}/resume`, headers: { origin: HUB_ORIGIN } }), 401, 'authentication', 'not_signed_in');
    expect((await w.member.get(base(a.held))).json().automation.status).toBe('paused');
  });
});

describe('POST /hub/api/automation-runs/{id}/stop', () => {
  it("stops a contact's run with the hub's reason (audited); a final run is 409 automation_run_not_active", async () => {
    const run = await insertRun(t, w.s.acme.id, a.welcome, w.s.acme.contacts.bob, 'waiting');
    await expectCsrfRefused(w.member, 'POST', `/hub/api/automation-runs/${run}/stop`, {});
    expectError(await w.other.post(`/hub/api/automation-runs/${run}/stop`), 404, 'not_found', 'resource_not_found');
    const res = await w.member.post(`/hub/api/automation-runs/${run}/stop`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: run, status: 'stopped', status_label: 'Stopped', error: 'Stopped in the hub', contact: { name: 'Bob' } });
    expect(await auditOf(t, w.s.acme.id, run)).toEqual([{ action: 'automation_run.stopped', actor_label: 'adam@acme.example', detail: {} }]);
    const again = expectError(await w.member.post(`/hub/api/automation-runs/${run}/stop`), 409, 'conflict', 'automation_run_not_active');
    expect(again.message).toMatch(/is stopped/);
    expectError(await w.member.post('/hub/api/automation-runs/0192f0c4-6a1e-7c3b-9a51-3f0e8d2b4c17/stop'), 404, 'not_found', 'resource_not_found');
  });
});
