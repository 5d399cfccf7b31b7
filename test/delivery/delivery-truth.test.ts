// Runs that tell the truth about their messages (issue 10), read the way an integrator reads them:
// GET /v1/automation-runs/{id}. A send step whose message ended not delivered is `failed` ("Not
// delivered: …"), one whose outcome is unknown is `unknown` ("Delivery unknown: …; not re-sent"),
// and the run is `failed` at that step, whether the message settled after the run ended or
// before; a delivered message leaves the step `ok` and the run `succeeded`. Nothing the step sent
// (address, subject, text) appears in any of it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { Sender } from '../../src/delivery/sender.js';
import { outboxTransport } from '../../src/delivery/transports/outbox.js';
import { smtpTransport } from '../../src/delivery/transports/smtp.js';
import type { Engine } from '../../src/engine/engine.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, seed } from '../http/fixtures.js';
import { startEngine, until } from '../engine/automations/support.js';
import { startSmtpSink, type SmtpBehaviour, type SmtpSink } from './sinks.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
const engines: Engine[] = [];
const sinks: SmtpSink[] = [];
let n = 0;

const auto = (ref: string, steps: unknown[]) => ({
  ref, name: ref, project: 'site', status: 'published', trigger: { type: 'manual', label: 'Enrolled by hand' }, steps, reenroll: 'always',
});
const WELCOME = { id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Secret subject', body: 'Private body text' } };

beforeAll(async () => {
  t = await testApp({});
  S = await seed(t.db, {
    ref: 'a',
    name: 'A',
    tier: 'enterprise',
    users: [{ ref: 'owner', email: 'owner@a.example', role: 'owner' }],
    keys: [{ ref: 'k', name: 'CRM sync', scopes: ['automations:enroll', 'automations:read'] }],
    projects: [{ ref: 'site', name: 'Site' }],
    automations: [
      auto('welcome', [WELCOME, { id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'welcomed' } }]),
      auto('drip', [WELCOME, { id: 'w', name: 'Pause', type: 'wait', config: { duration: 'PT2S' } }, { id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'dripped' } }]),
    ],
    contacts: [{ ref: 'bob', email: 'bob.private@example.org', first_name: 'Bob' }],
  });
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
});
afterAll(async () => {
  for (const s of sinks) await s.close();
  await t?.close();
});

const A = () => S.a;

async function enroll(ref: string): Promise<string> {
  const r = await t.app.inject({
    method: 'POST',
    url: `/v1/automations/${A().automations[ref]}/enrollments`,
    headers: { ...bearer(A().keys.k), 'idempotency-key': `truth-enroll-${n++}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ contact_ids: [A().contacts.bob] }),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ runs: { id: string }[] }>().runs[0].id;
}

async function getRun(id: string) {
  const r = await t.app.inject({ method: 'GET', url: `/v1/automation-runs/${id}`, headers: bearer(A().keys.k) });
  expect(r.statusCode, r.body).toBe(200);
  return { json: r.json(), body: r.body };
}

async function waitStatus(id: string, want: string) {
  await until(`run ${id} ${want}`, async () => (await getRun(id)).json.status === want);
  return getRun(id);
}

/** A sender to a local SMTP sink behaving as told; drained until nothing is due. */
async function deliverVia(script: SmtpBehaviour[]): Promise<SmtpSink> {
  const sink = await startSmtpSink(script);
  sinks.push(sink);
  const s = new Sender({
    db: t.db,
    transports: { email: smtpTransport({ url: sink.url, from: 'a@a.example', timeoutMs: 2_000, maxConnections: 1 }), sms: outboxTransport() },
    pollMs: 60_000,
    maxAttempts: 1,
  });
  await s.drain();
  await s.stop();
  return sink;
}

const step = (run: { steps: { step_id: string; status: string; error: string | null }[] }, id: string) => run.steps.find((s) => s.step_id === id)!;

function expectNothingSent(body: string) {
  for (const secret of ['bob.private@example.org', 'Secret subject', 'Private body text']) expect(body).not.toContain(secret);
}

describe('a run whose message was delivered', () => {
  it('keeps its step ok and the run succeeded', async () => {
    await startEngine(t.db, engines);
    const id = await enroll('welcome');
    await waitStatus(id, 'succeeded');
    await deliverVia(['accept']);
    const { json } = await getRun(id);
    expect(json).toMatchObject({ status: 'succeeded', error: null, failed_step_id: null });
    expect(step(json, 'e1')).toEqual(expect.objectContaining({ status: 'ok', error: null }));
  });
});

describe('a message held back at sending', () => {
  it('a contact put on do-not-contact after the step queued the message: the step says skipped, the run stays succeeded', async () => {
    await startEngine(t.db, engines);
    const id = await enroll('welcome');
    await waitStatus(id, 'succeeded');
    await t.db.query(`update contacts set do_not_contact = true where id = $1`, [A().contacts.bob]);
    try {
      const sink = await deliverVia(['accept']);
      expect(sink.connections).toBe(0);
    } finally {
      await t.db.query(`update contacts set do_not_contact = false where id = $1`, [A().contacts.bob]);
    }
    const { json } = await getRun(id);
    expect(step(json, 'e1').status).toBe('skipped');
    expect(step(json, 'e1').error).toMatch(/^Skipped: .*do-not-contact/);
    expect(json).toMatchObject({ status: 'succeeded', error: null });
  });
});

describe('a run whose message was not delivered', () => {
  it('refused after the run ended: the step is failed with the reason, and the run becomes failed at that step', async () => {
    await startEngine(t.db, engines);
    const id = await enroll('welcome');
    await waitStatus(id, 'succeeded');
    await deliverVia(['rcpt-550']);
    const { json, body } = await getRun(id);
    expect(step(json, 'e1')).toEqual(expect.objectContaining({ status: 'failed', error: 'Not delivered: the mail server refused the message (550)' }));
    expect(step(json, 'g')).toEqual(expect.objectContaining({ status: 'ok' }));
    expect(json).toMatchObject({
      status: 'failed',
      status_label: 'Failed',
      failed_step_id: 'e1',
      error: 'Failed: Welcome: Not delivered: the mail server refused the message (550)',
    });
    expectNothingSent(body);
    // The list shape says the same, and a status filter finds it.
    const list = await t.app.inject({ method: 'GET', url: `/v1/automations/${A().automations.welcome}/runs?status=failed`, headers: bearer(A().keys.k) });
    expect(list.json<{ data: { id: string }[] }>().data.map((r) => r.id)).toContain(id);
  });

  it('an outcome unknown (the connection dropped after the message): the step is unknown, not re-sent, and the run failed', async () => {
    await startEngine(t.db, engines);
    const id = await enroll('welcome');
    await waitStatus(id, 'succeeded');
    const sink = await deliverVia(['drop-after-data', 'accept']);
    const { json, body } = await getRun(id);
    expect(step(json, 'e1').status).toBe('unknown');
    expect(step(json, 'e1').error).toMatch(/^Delivery unknown: the connection to the mail server broke after the message was handed over \(\w+\); not re-sent$/);
    expect(json).toMatchObject({ status: 'failed', failed_step_id: 'e1' });
    expect(json.error).toMatch(/^Failed: Welcome: Delivery unknown: /);
    expectNothingSent(body);
    expect(sink.received).toBe(1);
  });

  it('refused while the run is still under way: the run carries on, then ends failed at the send step instead of succeeded', async () => {
    await startEngine(t.db, engines);
    const id = await enroll('drip');
    await waitStatus(id, 'waiting');
    await deliverVia(['rcpt-550']);
    const mid = await getRun(id);
    expect(mid.json.status).toBe('waiting');
    expect(step(mid.json, 'e1')).toEqual(expect.objectContaining({ status: 'failed', error: 'Not delivered: the mail server refused the message (550)' }));
    const { json } = await waitStatus(id, 'failed');
    expect(step(json, 'g').status).toBe('ok');
    expect(json).toMatchObject({ failed_step_id: 'e1', error: 'Failed: Welcome: Not delivered: the mail server refused the message (550)' });
  });
});
