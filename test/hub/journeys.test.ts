// Journeys and messages in the hub (issue 25, item 4): an automation run's page (GET
// /hub/api/automation-runs/{id}: each step's type and deed in words, the messages it queued), a
// message's page (GET /hub/api/messages/{id}: subject, body and the whole recipient for owners and
// admins only, every attempt with the transport's answer, addresses blanked), and a contact's
// timeline (GET /hub/api/contacts/{id}/timeline: runs, messages and changes, newest first, paged).
// Another account's ids are 404s; signed out is 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimQueued, requeueMessage, settleMessage } from '../../src/delivery/store.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { seedContactsWorld } from '../api/contacts-support.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';
import { insertMessage, insertRun } from './audience-support.js';

const JOURNEY = {
  ref: 'journey',
  name: 'Welcome series',
  project: 'p1',
  status: 'published',
  trigger: { type: 'contact.created', label: 'Contact is created' },
  steps: [
    { id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Welcome, {{first_name}}', body: 'Hi {{first_name}}' } },
    { id: 'w1', name: 'Two days', type: 'wait', config: { duration: 'P2D' } },
    { id: 'g1', name: 'Tag', type: 'tag.add', config: { tag: 'vip' } },
    { id: 'e2', name: 'Tips', type: 'email.send', config: { subject: 'Tips', body: 'Tips' } },
  ],
};

let t: TestApp;
let acme: { id: string; contacts: Record<string, string>; automations: Record<string, string>; users: Record<string, string> };
let owner: HubClient;
let admin: HubClient;
let member: HubClient;
let other: HubClient;
let runId: string;
let sentId: string;
let failedId: string;
let theirMessage: string;

async function step(run: string, seq: number, id: string, name: string, type: string, status: string, o: { error?: string; output?: unknown } = {}) {
  await t.db.query(
    `insert into automation_run_steps (account_id, run_id, seq, step_id, name, type, status, started_at, finished_at, ms, error, output)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now(), 5, $8, $9::jsonb)`,
    [acme.id, run, seq, id, name, type, status, o.error ?? null, o.output === undefined ? null : JSON.stringify(o.output)],
  );
}

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  const s = await seedContactsWorld(t, erasure.secret, { projects: ['p1'], automations: [JOURNEY] });
  acme = s.acme;
  const adminId = uuidv7();
  await t.db.query(`insert into users (account_id, id, email, role, name) values ($1, $2, 'ada.admin@acme.example', 'admin', 'Ada Admin')`, [acme.id, adminId]);
  owner = await hubClient(t, { accountId: acme.id, userId: acme.users.owner, email: 'owner@acme.example' });
  admin = await hubClient(t, { accountId: acme.id, userId: adminId, email: 'ada.admin@acme.example' });
  member = await hubClient(t, { accountId: acme.id, userId: acme.users.adam, email: 'adam@acme.example' });
  other = await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' });

  // Ann's run: the welcome email went, the wait ended, the tag was added, the tips email failed.
  runId = await insertRun(t, acme.id, acme.automations.journey, acme.contacts.ann, 'failed');
  failedId = uuidv7();
  await t.db.query(
    `insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, automation_run_id, step_id)
     values ($1, $2, 'email', 'queued', 'ann@example.org', 'Tips', '<p>Tips</p><script>alert(1)</script>', '<m@test>', $3, 'e2')`,
    [acme.id, failedId, runId],
  );
  // Two attempts, as the sender records them: a deferral naming the address, then a refusal.
  const [first] = await claimQueued(t.db, 10);
  await requeueMessage(t.db, first, 0, 'smtp', '451 <ann@example.org> mailbox busy', 'the mail server deferred the message (451)');
  const [second] = await claimQueued(t.db, 10);
  await settleMessage(t.db, second, { status: 'failed', transport: 'smtp', error: '550 <ann@example.org> unknown user', reason: 'the mail server refused the message (550)' });
  sentId = await insertMessage(t, acme.id, { runId, status: 'sent', to: 'ann@example.org' });
  await t.db.query(`update outbox set step_id = 'e1', subject = 'Welcome, Ann', body = 'Hi Ann', transport = 'outbox' where account_id = $1 and id = $2`, [acme.id, sentId]);
  await step(runId, 1, 'e1', 'Welcome email', 'email.send', 'ok', { output: { outbox_id: sentId } });
  await step(runId, 2, 'w1', 'Two days', 'wait', 'ok', { output: { until: '2026-03-03T12:00:00.000Z' } });
  await step(runId, 3, 'g1', 'Tag', 'tag.add', 'ok');
  await step(runId, 4, 'e2', 'Tips', 'email.send', 'failed', { error: 'Not delivered: the mail server refused the message (550), after 2 attempts' });

  // Fixed times in the past, so the timeline's order is known: created, the run, its two messages.
  await t.db.query(`update contacts set created_at = '2024-01-01T09:00:00Z' where account_id = $1 and id = $2`, [acme.id, acme.contacts.ann]);
  await t.db.query(`update automation_runs set started_at = '2024-01-02T09:00:00Z' where account_id = $1 and id = $2`, [acme.id, runId]);
  await t.db.query(`update outbox set created_at = '2024-01-02T09:00:01Z' where account_id = $1 and id = $2`, [acme.id, sentId]);
  await t.db.query(`update outbox set created_at = '2024-01-04T09:00:00Z' where account_id = $1 and id = $2`, [acme.id, failedId]);
  theirMessage = await insertMessage(t, s.other.id, { runId: null, to: 'theirs@example.org' });
});
afterAll(() => t?.close());

describe('GET /hub/api/automation-runs/{id}', () => {
  it('says what each step did, in order, with the automation and the messages each step queued', async () => {
    const res = await member.get(`/hub/api/automation-runs/${runId}`);
    expect(res.statusCode, res.body).toBe(200);
    const run = res.json();
    expect(run).toMatchObject({ id: runId, automation: { id: acme.automations.journey, name: 'Welcome series' }, contact: { id: acme.contacts.ann, name: 'Ann Lee' }, status_label: 'Failed' });
    expect(run.steps.map((s: { type_label: string; did: string }) => [s.type_label, s.did])).toEqual([
      ['Trigger', 'Started: Contact is created'],
      ['Send email', 'Sent the email “Welcome, Ann”'],
      ['Wait', 'Waited 2 days'],
      ['Add tag', 'Added the tag “vip”'],
      ['Send email', 'Could not deliver the email “Tips”'],
    ]);
    expect(run.steps[1].messages).toEqual([{ id: sentId, channel: 'email', status: 'sent' }]);
    expect(run.steps[4]).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Not delivered/), messages: [{ id: failedId, status: 'failed' }] });
    // Never a body or an address.
    expect(res.body).not.toMatch(/SECRET-BODY|Hi Ann|ann@example\.org/);
  });

  it("is a 404 for another account's run and an unknown one, 400 for a malformed id, 401 signed out", async () => {
    expectError(await other.get(`/hub/api/automation-runs/${runId}`), 404, 'not_found', 'resource_not_found');
    expectError(await member.get(`/hub/api/automation-runs/${uuidv7()}`), 404, 'not_found', 'resource_not_found');
    expectError(await member.get('/hub/api/automation-runs/nope'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await t.app.inject({ method: 'GET', url: `/hub/api/automation-runs/${runId}` }), 401, 'authentication', 'not_signed_in');
  });
});

describe('GET /hub/api/messages/{id}', () => {
  it('shows owners and admins the whole recipient, the subject, the body and every attempt with the answer, addresses blanked', async () => {
    for (const c of [owner, admin]) {
      const res = await c.get(`/hub/api/messages/${failedId}`);
      expect(res.statusCode, res.body).toBe(200);
      const m = res.json();
      expect(m).toMatchObject({
        id: failedId,
        status: 'failed',
        to: 'ann@example.org',
        to_masked: false,
        subject: 'Tips',
        body: '<p>Tips</p><script>alert(1)</script>',
        body_format: 'html',
        body_hidden: false,
        step: { id: 'e2', name: 'Tips' },
        transport: 'smtp',
        attempts: 2,
        automation_run_id: runId,
        contact: { id: acme.contacts.ann, name: 'Ann Lee' },
        error: '550 <[address]> unknown user',
      });
      expect(m.attempt_log).toEqual([
        { at: expect.stringMatching(/Z$/), outcome: 'retry', transport: 'smtp', reason: 'the mail server deferred the message (451)', answer: '451 <[address]> mailbox busy' },
        { at: expect.stringMatching(/Z$/), outcome: 'failed', transport: 'smtp', reason: 'the mail server refused the message (550)', answer: '550 <[address]> unknown user' },
      ]);
    }
    // A plain-lines email body is shown as its HTML part is sent.
    expect((await owner.get(`/hub/api/messages/${sentId}`)).json()).toMatchObject({ body: '<p>Hi Ann</p>', transport: 'outbox', step: { id: 'e1', name: 'Welcome email' } });
  });

  it('shows a member the message with the recipient masked and no body', async () => {
    const res = await member.get(`/hub/api/messages/${failedId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ to: 'a***@example.org', to_masked: true, body: null, body_hidden: true, subject: 'Tips' });
    expect(res.json().attempt_log).toHaveLength(2);
    expect(res.body).not.toMatch(/ann@example\.org|alert\(1\)/);
  });

  it("is a 404 for another account's message and an unknown one, 400 for a malformed id, 401 signed out", async () => {
    expectError(await owner.get(`/hub/api/messages/${theirMessage}`), 404, 'not_found', 'resource_not_found');
    expectError(await other.get(`/hub/api/messages/${failedId}`), 404, 'not_found', 'resource_not_found');
    expectError(await owner.get(`/hub/api/messages/${uuidv7()}`), 404, 'not_found', 'resource_not_found');
    expectError(await owner.get('/hub/api/messages/1%27%20or%201=1'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await t.app.inject({ method: 'GET', url: `/hub/api/messages/${failedId}` }), 401, 'authentication', 'not_signed_in');
  });
});

describe('GET /hub/api/messages/{id}/body', () => {
  it('serves owners and admins the body as a document under a CSP that loads and runs nothing', async () => {
    for (const c of [owner, admin]) {
      const res = await c.get(`/hub/api/messages/${failedId}/body`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'; sandbox",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toMatch(/^<!doctype html>[\s\S]*<body><p>Tips<\/p><script>alert\(1\)<\/script><\/body><\/html>$/);
    }
  });

  it('refuses members (403), another account (404) and the signed out (401)', async () => {
    expectError(await member.get(`/hub/api/messages/${failedId}/body`), 403, 'permission', 'role_forbidden');
    expectError(await other.get(`/hub/api/messages/${failedId}/body`), 404, 'not_found', 'resource_not_found');
    expectError(await t.app.inject({ method: 'GET', url: `/hub/api/messages/${failedId}/body` }), 401, 'authentication', 'not_signed_in');
  });
});

describe('GET /hub/api/contacts/{id}/timeline', () => {
  it('lists runs, messages and changes newest first, in words, and pages', async () => {
    const edited = await owner.patch(`/hub/api/contacts/${acme.contacts.ann}`, { last_name: 'Lee-Smith', email_opt_out: true });
    expect(edited.statusCode, edited.body).toBe(200);
    const res = await member.get(`/hub/api/contacts/${acme.contacts.ann}/timeline`);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().data as Array<{ kind: string; id: string; text: string; status_label: string | null; at: string }>;
    expect(entries.map((e) => [e.kind, e.text, e.status_label])).toEqual([
      ['change', expect.stringMatching(/^Opted out of email; Edited: last name \(.+\)$/), null],
      ['message', 'Email “Tips”', 'Not delivered'],
      ['message', 'Email “Welcome, Ann”', 'Sent'],
      ['run', 'Automation “Welcome series”', 'Failed'],
      ['change', 'Created', null],
    ]);
    expect(entries.find((e) => e.kind === 'run')!.id).toBe(runId);

    const first = await member.get(`/hub/api/contacts/${acme.contacts.ann}/timeline?limit=2`);
    expect(first.json()).toMatchObject({ has_more: true });
    const second = await member.get(`/hub/api/contacts/${acme.contacts.ann}/timeline?limit=2&cursor=${first.json().next_cursor}`);
    const third = await member.get(`/hub/api/contacts/${acme.contacts.ann}/timeline?limit=2&cursor=${second.json().next_cursor}`);
    const paged = [...first.json().data, ...second.json().data, ...third.json().data].map((e: { id: string }) => e.id);
    expect(paged).toEqual(entries.map((e) => e.id));
    expect(third.json()).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("is a 404 for another account's contact, an erased or unknown one; refuses a bad cursor; 401 signed out", async () => {
    expectError(await other.get(`/hub/api/contacts/${acme.contacts.ann}/timeline`), 404, 'not_found', 'resource_not_found');
    expectError(await owner.get(`/hub/api/contacts/${acme.contacts.gone}/timeline`), 404, 'not_found', 'resource_not_found');
    expectError(await owner.get(`/hub/api/contacts/${uuidv7()}/timeline`), 404, 'not_found', 'resource_not_found');
    const page = await owner.get(`/hub/api/contacts/${acme.contacts.ann}/timeline?limit=1`);
    // A cursor of one contact is not another's, nor another account's.
    expectError(await owner.get(`/hub/api/contacts/${acme.contacts.cy}/timeline?cursor=${page.json().next_cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await owner.get(`/hub/api/contacts/${acme.contacts.ann}/timeline?cursor=${'x'.repeat(5000)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await owner.get(`/hub/api/contacts/${acme.contacts.ann}/timeline?limit=0`), 400, 'invalid_request', 'invalid_parameter', 'limit');
    expectError(await t.app.inject({ method: 'GET', url: `/hub/api/contacts/${acme.contacts.ann}/timeline` }), 401, 'authentication', 'not_signed_in');
  });
});
