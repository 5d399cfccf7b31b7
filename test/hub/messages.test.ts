// GET /hub/api/messages: every message of the account newest first, each status the domain
// declares, recipients masked as in logs, the automation and contact of the run, a failure's
// reason; filters and cursors; never a subject or body; no session, another account's messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_STATUSES } from '../../src/domain/message.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { expectError } from '../http/fixtures.js';
import { audienceWorld, insertMessage, insertRun, type World } from './audience-support.js';

let t: TestApp;
let w: World;
const m: Record<string, string> = {};

beforeAll(async () => {
  t = await testApp();
  w = await audienceWorld(t);
  const acme = w.s.acme;
  const annRun = await insertRun(t, acme.id, acme.automations.welcome, acme.contacts.ann, 'succeeded');
  const cyRun = await insertRun(t, acme.id, acme.automations.held, acme.contacts.cy, 'failed');
  m.queued = await insertMessage(t, acme.id, { runId: annRun, status: 'queued', to: 'ann@example.org' });
  m.sending = await insertMessage(t, acme.id, { runId: annRun, status: 'sending', channel: 'sms', to: '+1 555 0100' });
  m.sent = await insertMessage(t, acme.id, { runId: cyRun, status: 'sent', to: 'cy@example.org' });
  m.failed = await insertMessage(t, acme.id, { runId: cyRun, status: 'failed', to: 'cy@example.org', error: '550 mailbox cy@example.org unknown' });
  m.unknown = await insertMessage(t, acme.id, { runId: null, status: 'unknown', channel: 'team', to: 'owner@acme.example' });
  m.theirs = await insertMessage(t, w.s.other.id, { runId: null, to: 'theirs@example.org' });
});
afterAll(() => t?.close());

const ids = (res: { json(): { data: Array<{ id: string }> } }) => res.json().data.map((x) => x.id);

describe('GET /hub/api/messages', () => {
  it('lists every message of the account, newest first, with its status, masked recipient, automation and contact', async () => {
    const res = await w.member.get('/hub/api/messages');
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res)).toEqual([m.unknown, m.failed, m.sent, m.sending, m.queued]);
    const byId = Object.fromEntries(res.json().data.map((x: { id: string }) => [x.id, x]));
    expect(byId[m.failed]).toEqual({
      id: m.failed,
      channel: 'email',
      status: 'failed',
      to: 'c***@example.org',
      automation: { id: w.s.acme.automations.held, name: 'Held' },
      automation_run_id: expect.any(String),
      test: false,
      contact: { id: w.s.acme.contacts.cy, name: 'Cy' },
      attempts: 0,
      created_at: expect.stringMatching(/Z$/),
      sent_at: null,
      error: '550 mailbox [address] unknown',
      kept_in_outbox: false,
    });
    expect(byId[m.sending]).toMatchObject({ channel: 'sms', to: '***00', contact: { name: 'Ann Lee' } });
    expect(byId[m.unknown]).toMatchObject({ channel: 'team', status: 'unknown', automation: null, contact: null, automation_run_id: null, test: false });
    expect(new Set(res.json().data.map((x: { status: string }) => x.status))).toEqual(new Set(OUTBOX_STATUSES));
    expect(res.body).not.toMatch(/SECRET|ann@example\.org|cy@example\.org|555 0100/);
  });

  it('filters by status, channel, contact and automation', async () => {
    const acme = w.s.acme;
    expect(ids(await w.member.get('/hub/api/messages?status=failed'))).toEqual([m.failed]);
    expect(ids(await w.member.get('/hub/api/messages?channel=sms'))).toEqual([m.sending]);
    expect(ids(await w.member.get(`/hub/api/messages?contact_id=${acme.contacts.ann}`))).toEqual([m.sending, m.queued]);
    expect(ids(await w.member.get(`/hub/api/messages?automation_id=${acme.automations.held}&status=sent`))).toEqual([m.sent]);
    // Another account's contact: nothing of it is listed.
    expect(ids(await w.member.get(`/hub/api/messages?contact_id=${w.s.other.contacts.theirs}`))).toEqual([]);
  });

  it('pages with cursors bound to the filters', async () => {
    const first = await w.member.get('/hub/api/messages?limit=2');
    expect(ids(first)).toEqual([m.unknown, m.failed]);
    const cursor = first.json().next_cursor;
    const second = await w.member.get(`/hub/api/messages?limit=2&cursor=${cursor}`);
    expect(ids(second)).toEqual([m.sent, m.sending]);
    const third = await w.member.get(`/hub/api/messages?limit=2&cursor=${second.json().next_cursor}`);
    expect(ids(third)).toEqual([m.queued]);
    expect(third.json()).toMatchObject({ has_more: false, next_cursor: null });
    expectError(await w.member.get(`/hub/api/messages?limit=2&status=sent&cursor=${cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    // A cursor of one account is not another's.
    expectError(await w.other.get(`/hub/api/messages?limit=2&cursor=${cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('refuses bad filters', async () => {
    expectError(await w.member.get('/hub/api/messages?status=bounced'), 400, 'invalid_request', 'invalid_parameter', 'status');
    expectError(await w.member.get('/hub/api/messages?channel=fax'), 400, 'invalid_request', 'invalid_parameter', 'channel');
    expectError(await w.member.get('/hub/api/messages?contact_id=nope'), 400, 'invalid_request', 'invalid_id', 'contact_id');
    expectError(await w.member.get('/hub/api/messages?body=1'), 400, 'invalid_request', 'unknown_parameter', 'body');
    expectError(await w.member.get('/hub/api/messages?limit=0'), 400, 'invalid_request', 'invalid_parameter', 'limit');
  });

  it("shows each account only its own messages, and needs a session", async () => {
    expect(ids(await w.other.get('/hub/api/messages'))).toEqual([m.theirs]);
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/messages' }), 401, 'authentication', 'not_signed_in');
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/messages', headers: { cookie: 'sb_session=forged' } }), 401, 'authentication', 'not_signed_in');
  });
});
