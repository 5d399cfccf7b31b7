// The automation builder's Send test and its side actions (issue 13 item 3): a test of the draft
// as saved when it starts (a later edit does not change it) or of a version, sent only to the
// person testing, with no counter moved while /v1's runs keep the published version; the run's
// detail; the template preview for a contact or the sample contact (HTML escaped as the engine
// does, an SMS's segments and price); rotating the webhook secret; the Messages "test" mark;
// refusals, another account's ids, the audit entries.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { editDraft } from '../../src/services/automations/service.js';
import { smsSegments } from '../../src/domain/sms-segments.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError } from '../http/fixtures.js';
import { insertContact, startEngine, waitForRun } from '../engine/automations/support.js';
import { auditOf, audienceWorld, expectCsrfRefused, type World } from './audience-support.js';

let t: TestApp;
let w: World;
let a: Record<string, string>;
let c: Record<string, string>;
const engines: Engine[] = [];

beforeAll(async () => {
  t = await testApp();
  w = await audienceWorld(t);
  a = w.s.acme.automations;
  c = w.s.acme.contacts;
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
});
afterAll(() => t?.close());

const testUrl = (id: string) => `/hub/api/automations/${id}/test`;
const UNKNOWN = '0192f0c4-6a1e-7c3b-9a51-3f0e8d2b4c17';

async function outboxOf(runId: string): Promise<string[][]> {
  const rows = await t.db.query<{ channel: string; to_address: string; subject: string | null; body: string }>(
    `select channel, to_address, subject, body from outbox where automation_run_id = $1 order by created_at, id`,
    [runId],
  );
  return rows.map((r) => [r.channel, r.to_address, r.subject ?? '', r.body]);
}

async function counters(id: string): Promise<unknown> {
  const { automation } = (await w.member.get(`/hub/api/automations/${id}`)).json();
  return { enrollments: automation.enrollments, last_run_at: automation.last_run_at };
}

const edit = (id: string, steps: unknown[]) => editDraft(t.db, { automationId: id, accountId: w.s.acme.id }, { steps });

describe('POST /hub/api/automations/{id}/test', () => {
  it('tests the draft as saved when it starts, only to the tester, moving no counter; /v1 runs keep the published version', async () => {
    await edit(a.welcome, [
      { id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Draft hi {{first_name}}', body: '<p>Draft for {{first_name}}</p>' } },
      { id: 's1', name: 'Text', type: 'sms.send', config: { body: 'Draft text for {{first_name}}' } },
    ]);
    const before = await counters(a.welcome);
    const res = await w.member.post(testUrl(a.welcome), { contact_id: c.ann });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      tester_email: 'adam@acme.example',
      run: { automation_id: a.welcome, contact: { id: c.ann, name: 'Ann Lee' }, status: 'running', test: true, version: 0, started_by: 'Test by adam@acme.example' },
    });
    // Edited again before a worker picks the test up: the test runs what was saved when it started.
    await edit(a.welcome, [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Later', body: 'Later' } }]);

    // A contact created through /v1 starts a real run: the published version 1, to the contact.
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/contacts',
      headers: { ...bearer(w.s.acme.keys.main), 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'newbie@example.org', first_name: 'Newbie' }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const [real] = await t.db.query<{ id: string; version: number; test: boolean }>(
      `select id, version, test from automation_runs where contact_id = $1`,
      [created.json().id],
    );
    expect(real).toMatchObject({ version: 1, test: false });

    await startEngine(t.db, engines);
    await waitForRun(t.db, body.run.id, 'succeeded');
    await waitForRun(t.db, real.id, 'succeeded');
    expect(await outboxOf(body.run.id)).toEqual([
      ['email', 'adam@acme.example', '[Test] Draft hi Ann', '<p>Draft for Ann</p>'],
      ['email', 'adam@acme.example', '[Test] Text message', 'Draft text for Ann'],
    ]);
    const sentToNewbie = await outboxOf(real.id);
    expect(sentToNewbie.map((m) => m.slice(0, 3))).toEqual([['email', 'newbie@example.org', 'Welcome']]);
    expect(sentToNewbie[0][3]).toContain('Hello Newbie');

    // The test moved no counter: the enrollments and last_run_at moved by the real run only.
    const after = (await counters(a.welcome)) as { enrollments: { total: number } };
    expect(after.enrollments.total).toBe((before as { enrollments: { total: number } }).enrollments.total + 1);
    const [{ count }] = await t.db.query<{ count: number }>(`select count(*)::int as count from outbox where to_address = 'ann@example.org'`);
    expect(count).toBe(0);

    // Messages mark the test's rows; the real run's are not marked.
    const msgs = (await w.member.get(`/hub/api/messages?automation_id=${a.welcome}`)).json().data as Array<{ automation_run_id: string; test: boolean }>;
    expect(msgs.filter((m) => m.automation_run_id === body.run.id).map((m) => m.test)).toEqual([true, true]);
    expect(msgs.filter((m) => m.automation_run_id === real.id).map((m) => m.test)).toEqual([false]);

    // The run's detail, for the builder's test panel: the trigger then the draft's steps.
    const detail = await w.member.get(`/hub/api/automation-runs/${body.run.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ id: body.run.id, test: true, version: 0, status: 'succeeded', failed_step_id: null });
    expect(detail.json().steps.map((s: { step_id: string; name: string; status: string }) => [s.step_id, s.name, s.status])).toEqual([
      ['t', 'Contact is created', 'ok'],
      ['e1', 'Welcome', 'ok'],
      ['s1', 'Text', 'ok'],
    ]);
    expect(detail.body).not.toContain('Draft for Ann');
    expectError(await w.other.get(`/hub/api/automation-runs/${body.run.id}`), 404, 'not_found', 'resource_not_found');

    const audit = (await auditOf(t, w.s.acme.id, a.welcome)).filter((e) => e.action === 'automation.test_started');
    expect(audit).toEqual([
      { action: 'automation.test_started', actor_label: 'adam@acme.example', detail: { run_id: body.run.id, contact_id: c.ann, version: 0, draft: true } },
    ]);
  });

  it('tests a published version, moving no counter; an unknown version is 404', async () => {
    const before = await counters(a.welcome);
    const res = await w.member.post(testUrl(a.welcome), { contact_id: c.cy, version: 1 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().run).toMatchObject({ test: true, version: 1, contact: { id: c.cy, name: 'Cy' } });
    await startEngine(t.db, engines);
    await waitForRun(t.db, res.json().run.id, 'succeeded');
    const sent = await outboxOf(res.json().run.id);
    expect(sent.map((m) => m.slice(0, 3))).toEqual([['email', 'adam@acme.example', '[Test] Welcome']]);
    expect(sent[0][3]).toBe('Hello Cy');
    expect(await counters(a.welcome)).toEqual(before);
    expectError(await w.member.post(testUrl(a.welcome), { contact_id: c.cy, version: 9 }), 404, 'not_found', 'resource_not_found');
  });

  it('tests a draft never published; refuses one without steps or with an incomplete step (param names the field)', async () => {
    const res = await w.member.post(testUrl(a.drafty), { contact_id: c.cy });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().run).toMatchObject({ test: true, version: 0 });
    const empty = expectError(await w.member.post(testUrl(a.empty), { contact_id: c.cy }), 422, 'invalid_request', 'automation_not_publishable');
    expect(empty.message).toMatch(/no steps/);
    await edit(a.empty, [
      { id: 'w1', name: 'Wait', type: 'wait', config: { duration: 'PT1M' } },
      { id: 'e1', name: 'Mail', type: 'email.send', config: { body: 'Hi' } },
    ]);
    const bad = expectError(await w.member.post(testUrl(a.empty), { contact_id: c.cy }), 422, 'invalid_request', 'automation_not_publishable', 'steps[1].config.subject');
    expect(bad.message).toBe(`automation ${a.empty} cannot be tested: steps[1].config.subject: Fill in the subject`);
    const runs = await t.db.query(`select 1 from automation_runs where automation_id = $1`, [a.empty]);
    expect(runs).toEqual([]);
  });

  it('refuses unknown, archived, erased and other accounts’ contacts, another account’s automation, unknown fields', async () => {
    for (const contact of [UNKNOWN, c.old, c.gone, w.s.other.contacts.theirs]) {
      expectError(await w.member.post(testUrl(a.welcome), { contact_id: contact }), 404, 'not_found', 'resource_not_found');
    }
    expectError(await w.other.post(testUrl(a.welcome), { contact_id: c.ann }), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.post(testUrl(UNKNOWN), { contact_id: c.ann }), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.post(testUrl(a.welcome), { contact_id: c.ann, to: 'me@evil.example' }), 422, 'invalid_request', 'unknown_field', 'to');
    expectError(await w.member.post(testUrl(a.welcome), { contact_id: c.ann, version: 0 }), 422, 'invalid_request', 'invalid_field', 'version');
    await expectCsrfRefused(w.member, 'POST', testUrl(a.welcome), { contact_id: c.ann });
    expectError(await w.member.get(`/hub/api/automation-runs/${UNKNOWN}`), 404, 'not_found', 'resource_not_found');
  });

  it('the CLI tests the published version, the draft (--draft) or a version (--version N)', async () => {
    const cli = (...extra: string[]) =>
      runOperatorCommand(t.db, ['automations', 'test', a.drafty, '--contact', c.di, '--by', w.s.acme.users.adam, ...extra, '--json']);
    const never = await cli();
    expect(never.code).toBe(1);
    expect(never.stderr).toMatch(/never been published: test its draft \(--draft\)/);
    const draft = await cli('--draft');
    expect(draft.code, draft.stderr).toBe(0);
    expect(JSON.parse(draft.stdout)).toMatchObject({ version: 0, draft: true, tester_email: 'adam@acme.example', test: true });
    const v = await runOperatorCommand(t.db, ['automations', 'test', a.welcome, '--contact', c.di, '--by', w.s.acme.users.adam, '--version', '1']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(/\(version 1\) for contact/);
    expect((await cli('--version', '3')).stderr).toMatch(/has no version 3/);
    expect((await cli('--draft', '--version', '1')).code).toBe(2);
    const audit = (await auditOf(t, w.s.acme.id, a.drafty)).filter((e) => e.action === 'automation.test_started');
    expect(audit.at(-1)).toMatchObject({ actor_label: 'operator (CLI)', detail: { draft: true, version: 0 } });
  });
});

describe('POST /hub/api/automations/preview', () => {
  it('renders an email for a contact with the engine’s escaping (HTML body escaped, subject as written)', async () => {
    const tom = await insertContact(t.db, w.s.acme.id, { first_name: 'Tom & <b>Jerry</b>', last_name: 'Cat' });
    const res = await w.member.post('/hub/api/automations/preview', {
      channel: 'email',
      subject: 'Hi {{first_name}}',
      body: '<p>Hello {{first_name}} ({{email}})</p>',
      contact_id: tom,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.subject).toBe('Hi Tom & <b>Jerry</b>');
    expect(body.body).toMatch(/^<p>Hello Tom &amp; &lt;b&gt;Jerry&lt;&#x2F;b&gt; \(c\d+-\w+@example.org\)<\/p>$/);
    expect(body.contact).toEqual({ id: tom, name: 'Tom & <b>Jerry</b> Cat' });
    expect(body).not.toHaveProperty('segments');
  });

  it('renders for the sample contact Ada Lovelace when none is chosen; without a subject it is null', async () => {
    const res = await w.member.post('/hub/api/automations/preview', { channel: 'email', body: '{{name}} <{{email}}>' });
    // The template's own markup is the author's HTML; only the values put into it are escaped.
    expect(res.json()).toEqual({ subject: null, body: 'Ada Lovelace <ada@example.com>', contact: null });
  });

  it('counts a text’s segments and prices one send', async () => {
    const per = t.config.delivery.smsMicrosPerSegment;
    const short = (await w.member.post('/hub/api/automations/preview', { channel: 'sms', body: 'Hi {{first_name}} & co', contact_id: c.ann })).json();
    expect(short).toEqual({ subject: null, body: 'Hi Ann & co', segments: 1, encoding: 'gsm7', micros: per, contact: { id: c.ann, name: 'Ann Lee' } });
    const text = '😀'.repeat(40);
    expect(smsSegments(text)).toEqual({ encoding: 'ucs2', segments: 2 });
    const long = (await w.member.post('/hub/api/automations/preview', { channel: 'sms', body: text })).json();
    expect(long).toMatchObject({ body: text, segments: 2, encoding: 'ucs2', micros: 2 * per, contact: null });
  });

  it('refuses archived, erased, unknown and other accounts’ contacts (404), an unreadable template (422), unknown fields', async () => {
    for (const contact of [c.old, c.gone, UNKNOWN, w.s.other.contacts.theirs]) {
      expectError(await w.member.post('/hub/api/automations/preview', { channel: 'email', body: 'x', contact_id: contact }), 404, 'not_found', 'resource_not_found');
    }
    expectError(await w.member.post('/hub/api/automations/preview', { channel: 'email', body: '{{#open}} never closed' }), 422, 'invalid_request', 'invalid_field', 'body');
    expectError(await w.member.post('/hub/api/automations/preview', { channel: 'email', subject: '{{/x}}', body: 'x' }), 422, 'invalid_request', 'invalid_field', 'subject');
    expectError(await w.member.post('/hub/api/automations/preview', { channel: 'fax', body: 'x' }), 422, 'invalid_request', 'invalid_field', 'channel');
    expectError(await w.member.post('/hub/api/automations/preview', { channel: 'sms', body: 'x', from: 'y' }), 422, 'invalid_request', 'unknown_field', 'from');
  });
});

describe('POST /hub/api/automations/{id}/webhook', () => {
  it('gives a new URL and secret on the public base; the previous URL stops working; audited without the secret', async () => {
    const hook = (url: string) =>
      t.app.inject({ method: 'POST', url: new URL(url).pathname, headers: { 'content-type': 'application/json' }, payload: { email: 'hooked@example.org' } });
    const first = await w.member.post(`/hub/api/automations/${a.welcome}/webhook`);
    expect(first.statusCode, first.body).toBe(200);
    const { url, secret } = first.json();
    expect(url).toBe(`${t.config.delivery.publicUrl}/hooks/automations/${secret}`);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = (await w.owner.post(`/hub/api/automations/${a.welcome}/webhook`)).json();
    expect(second.secret).not.toBe(secret);
    expectError(await hook(url), 404, 'not_found', 'route_not_found');
    const ok = await hook(second.url);
    expect(ok.statusCode, ok.body).toBeLessThan(300);
    const audit = (await auditOf(t, w.s.acme.id, a.welcome)).filter((e) => e.action === 'automation.webhook_rotated');
    expect(audit.map((e) => e.actor_label)).toEqual(['adam@acme.example', 'owner@acme.example']);
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(JSON.stringify(audit)).not.toContain(second.secret);
  });

  it('refuses another account’s automation and an unknown one (404), and a request without CSRF', async () => {
    expectError(await w.other.post(`/hub/api/automations/${a.welcome}/webhook`), 404, 'not_found', 'resource_not_found');
    expectError(await w.member.post(`/hub/api/automations/${UNKNOWN}/webhook`), 404, 'not_found', 'resource_not_found');
    await expectCsrfRefused(w.member, 'POST', `/hub/api/automations/${a.welcome}/webhook`, {});
    const audit = (await auditOf(t, w.s.other.id, a.welcome)).filter((e) => e.action === 'automation.webhook_rotated');
    expect(audit).toEqual([]);
  });
});
