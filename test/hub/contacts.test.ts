// /hub/api/contacts: the list with /v1's search, filters and cursors; a contact's page (fields,
// STOP flag, its automation runs with their labels, its messages masked); create (contact.created
// automations start); edit through /v1's service (opt-outs locked, audit names fields, not
// values); erase with a typed confirmation; no session, CSRF, other accounts, a lapsed account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';
import { expectExists } from '../api/contacts-support.js';
import { auditOf, audienceWorld, expectCsrfRefused, insertMessage, insertRun, type World } from './audience-support.js';

let t: TestApp;
let w: World;
let c: Record<string, string>;

beforeAll(async () => {
  t = await testApp();
  w = await audienceWorld(t);
  c = w.s.acme.contacts;
});
afterAll(() => t?.close());

const emails = (body: { data: Array<{ email: string }> }) => body.data.map((x) => x.email).sort();

describe('GET /hub/api/contacts', () => {
  it('lists the live contacts of the account only, for a member too', async () => {
    const res = await w.member.get('/hub/api/contacts');
    expect(res.statusCode, res.body).toBe(200);
    expect(emails(res.json())).toEqual(['ann@example.org', 'bob@example.org', 'cy@example.org', 'di@example.org']);
    expect(res.json().has_more).toBe(false);
  });

  it("searches and filters as /v1's list, and pages with its cursors", async () => {
    expect(emails((await w.member.get('/hub/api/contacts?q=lee')).json())).toEqual(['ann@example.org']);
    expect(emails((await w.member.get('/hub/api/contacts?lifecycle_stage=lead')).json())).toEqual(['ann@example.org']);
    expect(emails((await w.member.get('/hub/api/contacts?email=%20BOB@example.org')).json())).toEqual(['bob@example.org']);
    const first = (await w.member.get('/hub/api/contacts?limit=3')).json();
    expect(first.data).toHaveLength(3);
    expect(first.has_more).toBe(true);
    const second = (await w.member.get(`/hub/api/contacts?limit=3&cursor=${first.next_cursor}`)).json();
    expect(second.data).toHaveLength(1);
    expect(new Set([...emails(first), ...emails(second)]).size).toBe(4);
  });

  it('refuses an unknown parameter, a bad filter and a cursor of another filter', async () => {
    expectError(await w.member.get('/hub/api/contacts?colour=red'), 400, 'invalid_request', 'unknown_parameter', 'colour');
    expectError(await w.member.get('/hub/api/contacts?lifecycle_stage=boss'), 400, 'invalid_request', 'invalid_parameter', 'lifecycle_stage');
    const first = (await w.member.get('/hub/api/contacts?limit=1')).json();
    expectError(await w.member.get(`/hub/api/contacts?limit=1&q=lee&cursor=${first.next_cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/hub/api/contacts' });
    expectError(res, 401, 'authentication', 'not_signed_in');
  });
});

describe('GET /hub/api/contacts/{id}', () => {
  it('shows the fields and the STOP flag (what the contact went through is its timeline)', async () => {
    await t.db.query(`update contacts set sms_stopped = true where id = $1`, [c.ann]);
    const res = await w.member.get(`/hub/api/contacts/${c.ann}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['contact', 'sms_stopped']);
    expect(body.contact).toMatchObject({ id: c.ann, email: 'ann@example.org', first_name: 'Ann', sms_consent: 'granted', do_not_contact: false });
    expect(body.sms_stopped).toBe(true);
  });

  it('answers 404 for another account’s, an erased and an archived contact; 400 for a bad id', async () => {
    for (const id of [w.s.other.contacts.theirs, c.gone, c.old]) expectError(await w.member.get(`/hub/api/contacts/${id}`), 404, 'not_found', 'resource_not_found');
    expectError(await w.other.get(`/hub/api/contacts/${c.ann}`), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.get('/hub/api/contacts/nope'), 400, 'invalid_request', 'invalid_id', 'id');
  });
});

describe('POST /hub/api/contacts', () => {
  it('creates a contact, starts the contact.created automation for it, and records who did', async () => {
    const res = await w.member.post('/hub/api/contacts', { email: 'New.One@example.org', first_name: 'New', tags: ['hub'] });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json();
    expect(made).toMatchObject({ email: 'New.One@example.org', first_name: 'New', tags: ['hub'], assignee: null });
    const runs = await t.db.query<{ automation_id: string }>(`select automation_id from automation_runs where contact_id = $1`, [made.id]);
    expect(runs.map((r) => r.automation_id)).toEqual([w.s.acme.automations.welcome]);
    const audit = await auditOf(t, w.s.acme.id, made.id);
    expect(audit).toEqual([{ action: 'contact.created', actor_label: 'adam@acme.example', detail: {} }]);
  });

  it('refuses a taken address, an erased person’s, a bad email and unknown fields', async () => {
    expectExists(await w.member.post('/hub/api/contacts', { email: 'ANN@example.org' }), c.ann);
    expectError(await w.member.post('/hub/api/contacts', { email: 'gone@example.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    expectError(await w.member.post('/hub/api/contacts', { email: 'not an address' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await w.member.post('/hub/api/contacts', { email: 'x@example.org', assignee: null }), 422, 'invalid_request', 'unknown_field', 'assignee');
    expectError(await w.member.post('/hub/api/contacts', {}), 400, 'invalid_request', 'missing_field', 'email');
  });

  it('refuses without CSRF or from another origin, and in a lapsed account', async () => {
    await expectCsrfRefused(w.member, 'POST', '/hub/api/contacts', { email: 'csrf@example.org' });
    expectError(await w.lapsed.post('/hub/api/contacts', { email: 'lapsed@example.org' }), 403, 'permission', 'subscription_inactive');
    expect(await t.db.query(`select 1 from contacts where email in ('csrf@example.org', 'lapsed@example.org')`)).toEqual([]);
  });
});

describe('PATCH /hub/api/contacts/{id}', () => {
  it('edits fields and consents; the audit entry names the fields changed, not their values', async () => {
    const res = await w.member.patch(`/hub/api/contacts/${c.cy}`, { last_name: 'Young', sms_consent: 'granted', email_opt_out: true, do_not_contact: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ last_name: 'Young', sms_consent: 'granted', email_opt_out: true, do_not_contact: false });
    const audit = await auditOf(t, w.s.acme.id, c.cy);
    expect(audit).toEqual([{ action: 'contact.updated', actor_label: 'adam@acme.example', detail: { fields: ['email_opt_out', 'last_name', 'sms_consent'] } }]);
    expect(JSON.stringify(audit)).not.toContain('Young');
    // A change that changes nothing records nothing.
    expect((await w.member.patch(`/hub/api/contacts/${c.cy}`, { last_name: 'Young' })).statusCode).toBe(200);
    expect(await auditOf(t, w.s.acme.id, c.cy)).toHaveLength(1);
  });

  it('cannot lift do-not-contact or an email opt-out (409 opt_out_locked), and changes nothing then', async () => {
    expectError(await w.owner.patch(`/hub/api/contacts/${c.bob}`, { do_not_contact: false }), 409, 'conflict', 'opt_out_locked', 'do_not_contact');
    expectError(await w.owner.patch(`/hub/api/contacts/${c.bob}`, { first_name: 'Rob', email_opt_out: null }), 409, 'conflict', 'opt_out_locked', 'email_opt_out');
    const bob = (await w.owner.get(`/hub/api/contacts/${c.bob}`)).json().contact;
    expect(bob).toMatchObject({ first_name: 'Bob', do_not_contact: true, email_opt_out: true });
    expect(await auditOf(t, w.s.acme.id, c.bob)).toEqual([]);
  });

  it('refuses another account’s contact (404), a bad field, no CSRF', async () => {
    expectError(await w.other.patch(`/hub/api/contacts/${c.di}`, { first_name: 'X' }), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.patch(`/hub/api/contacts/${c.di}`, { lifecycle_stage: 'boss' }), 422, 'invalid_request', 'invalid_field', 'lifecycle_stage');
    expectError(await w.member.patch(`/hub/api/contacts/${c.di}`, { colour: 'red' }), 422, 'invalid_request', 'unknown_field', 'colour');
    await expectCsrfRefused(w.member, 'PATCH', `/hub/api/contacts/${c.di}`, { first_name: 'X' });
    expect((await w.member.get(`/hub/api/contacts/${c.di}`)).json().contact.first_name).toBeNull();
  });
});

describe('POST /hub/api/contacts/{id}/erase', () => {
  it('needs the typed confirmation to name the contact', async () => {
    expectError(await w.member.post(`/hub/api/contacts/${c.di}/erase`, { confirm: 'cy@example.org' }), 422, 'invalid_request', 'invalid_field', 'confirm');
    expectError(await w.member.post(`/hub/api/contacts/${c.di}/erase`, {}), 400, 'invalid_request', 'missing_field', 'confirm');
    expect((await w.member.get(`/hub/api/contacts/${c.di}`)).statusCode).toBe(200);
  });

  it('erases as `contacts erase` does: runs stopped, messages deleted, address refused after; audited', async () => {
    const run = await insertRun(t, w.s.acme.id, w.s.acme.automations.welcome, c.di, 'waiting');
    await insertMessage(t, w.s.acme.id, { runId: run, to: 'di@example.org' });
    await expectCsrfRefused(w.member, 'POST', `/hub/api/contacts/${c.di}/erase`, { confirm: 'di@example.org' });
    expectError(await w.other.post(`/hub/api/contacts/${c.di}/erase`, { confirm: 'di@example.org' }), 404, 'not_found', 'resource_not_found');
    const res = await w.member.post(`/hub/api/contacts/${c.di}/erase`, { confirm: ' DI@example.org ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: c.di, erased: true, runs_stopped: 1, messages_deleted: 1 });
    expectError(await w.member.get(`/hub/api/contacts/${c.di}`), 404, 'not_found', 'resource_not_found');
    const [r] = await t.db.query<{ status: string; error: string }>(`select status, error from automation_runs where id = $1`, [run]);
    expect(r).toEqual({ status: 'stopped', error: 'Contact erased at their request' });
    expectError(await w.member.post('/hub/api/contacts', { email: 'di@example.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    expect(await auditOf(t, w.s.acme.id, c.di)).toEqual([
      { action: 'contact.erased', actor_label: 'adam@acme.example', detail: { runs_stopped: 1, messages_deleted: 1 } },
    ]);
    // Erasing again: it is gone.
    expectError(await w.member.post(`/hub/api/contacts/${c.di}/erase`, { confirm: c.di }), 404, 'not_found', 'resource_not_found');
  });

  it('takes the id as the confirmation too', async () => {
    const made = (await w.owner.post('/hub/api/contacts', { email: 'short@example.org' })).json();
    const res = await w.owner.post(`/hub/api/contacts/${made.id}/erase`, { confirm: made.id.toUpperCase() });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a session without an account picked is refused', async () => {
    const nobody = await hubClient(t, { accountId: null, userId: null, email: 'adam@acme.example', userIds: [w.s.acme.users.adam] });
    expectError(await nobody.post(`/hub/api/contacts/${c.cy}/erase`, { confirm: 'cy@example.org' }), 409, 'conflict', 'account_not_chosen');
  });
});
