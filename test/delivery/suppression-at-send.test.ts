// What enrolled contacts receive, driven through the API, the engine and the sender: suppression is
// decided again at the moment of sending (a contact put on do-not-contact, or who replies STOP,
// after the step queued a message gets nothing: docs/architecture.md §10.4), a step visited again
// through a loop sends again (its effects are once per visit, not once per run), and STOP matches a
// number by its digits, whether or not a "+" was stored or sent.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { Sender } from '../../src/delivery/sender.js';
import type { Transport } from '../../src/delivery/types.js';
import { createApp } from '../../src/server.js';
import { INBOUND_SMS_SECRET_HEADER } from '../../src/api/inbound/routes.js';
import type { Engine } from '../../src/engine/engine.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, seed } from '../http/fixtures.js';
import { startEngine, until } from '../engine/automations/support.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
const engines: Engine[] = [];
let n = 0;

const SECRET = 'inbound-secret-0123456789';

const auto = (ref: string, project: string, steps: unknown[]) => ({
  ref, name: ref, project, status: 'published', trigger: { type: 'manual', label: 'Enrolled by hand' }, steps, reenroll: 'always',
});

beforeAll(async () => {
  t = await testApp({});
  S = await seed(t.db, {
    ref: 'a',
    name: 'A',
    tier: 'enterprise',
    credit_micros: 50_000_000,
    users: [{ ref: 'owner', email: 'owner@a.example', role: 'owner' }],
    keys: [{ ref: 'k', name: 'CRM sync', scopes: ['automations:enroll', 'automations:read', 'contacts:write', 'contacts:read'] }],
    projects: [
      { ref: 'site', name: 'Site' },
    ],
    automations: [
      auto('both', 'site', [
        { id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi {{first_name}}', body: 'Hello {{email}}' } },
        { id: 's1', name: 'Text', type: 'sms.send', config: { body: 'Text to {{phone}}' } },
        { id: 'g', name: 'Tag', type: 'tag.add', config: { tag: 'reached' } },
      ]),
      auto('loop', 'site', [
        { id: 'b0', name: 'Done twice?', type: 'branch', config: { field: 'tags', op: 'contains', value: 'twice' }, branches: { yes: 'fin', no: 'b1' } },
        { id: 'b1', name: 'Once?', type: 'branch', config: { field: 'tags', op: 'contains', value: 'once' }, branches: { yes: 'g2', no: 'g1' } },
        { id: 'g1', name: 'Tag once', type: 'tag.add', config: { tag: 'once' }, next: 'e1' },
        { id: 'g2', name: 'Tag twice', type: 'tag.add', config: { tag: 'twice' }, next: 'e1' },
        { id: 'e1', name: 'Reminder', type: 'email.send', config: { subject: 'Reminder', body: 'r' }, next: 'b0' },
        { id: 'fin', name: 'End', type: 'end' },
      ]),
    ],
    contacts: [
      { ref: 'bob', email: 'bob@example.org', first_name: 'Bob', phone: '+15550100002', sms_consent: 'granted' },
      { ref: 'cy', email: 'cy@example.org', first_name: 'Cy', phone: '+15550100003', sms_consent: 'granted' },
      { ref: 'gil', email: 'gil@example.org', first_name: 'Gil', phone: '1 555 010 0008', sms_consent: 'granted' },
      { ref: 'hal', email: 'hal@example.org', first_name: 'Hal', phone: '+15550100009', sms_consent: 'granted' },
    ],
  });
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
});
afterAll(() => t?.close());

const A = () => S.a;
const c = (r: string) => A().contacts[r];

async function enroll(ref: string, ids: string[]) {
  const r = await t.app.inject({
    method: 'POST',
    url: `/v1/automations/${A().automations[ref]}/enrollments`,
    headers: { ...bearer(A().keys.k), 'idempotency-key': `send-enroll-${n++}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ contact_ids: ids }),
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json<{ runs: { id: string; contact_id: string }[]; skipped: unknown[] }>();
}
const getRun = async (id: string) => {
  const r = await t.app.inject({ method: 'GET', url: `/v1/automation-runs/${id}`, headers: bearer(A().keys.k) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
async function waitStatus(id: string, want: string, ms = 15_000) {
  let last: any;
  await until(`run ${id} ${want}`, async () => (last = await getRun(id)).status === want, ms);
  return last;
}

function capturing(): { transports: { email: Transport; sms: Transport }; sent: { to: string; subject: string | null; body: string }[] } {
  const sent: { to: string; subject: string | null; body: string }[] = [];
  const tr = (name: string): Transport => ({ name, development: false, async send(m) { sent.push({ to: m.to, subject: m.subject, body: m.body }); } });
  return { transports: { email: tr('cap-email'), sms: tr('cap-sms') }, sent };
}

describe('delivery after the step ran', () => {
  it('the sender re-checks suppression: a contact put on do-not-contact, or who replies STOP, after the step queued the message but before delivery gets nothing', async () => {
    await startEngine(t.db, engines);
    const { runs } = await enroll('both', [c('bob'), c('cy')]);
    for (const r of runs) await waitStatus(r.id, 'succeeded');
    // The engine queued Bob's and Cy's email and text; the sender has not delivered them yet.
    // Bob is marked do-not-contact through the API; Cy replies STOP.
    const p = await t.app.inject({
      method: 'PATCH', url: `/v1/contacts/${c('bob')}`, headers: { ...bearer(A().keys.k), 'content-type': 'application/json' },
      payload: JSON.stringify({ do_not_contact: true }),
    });
    expect(p.statusCode, p.body).toBe(200);
    const app = await createApp(configWith({ rateLimitStore: 'memory', delivery: { ...t.config.delivery, inboundSmsSecret: SECRET } }), t.db);
    const r = await app.inject({
      method: 'POST', url: '/inbound/sms', headers: { 'content-type': 'application/json', [INBOUND_SMS_SECRET_HEADER]: SECRET },
      payload: JSON.stringify({ from: '+15550100003', text: 'STOP' }),
    });
    await app.close();
    expect(r.json()).toMatchObject({ action: 'stopped', contacts: 1 });
    const cap = capturing();
    await new Sender({ db: t.db, transports: cap.transports, pollMs: 60_000 }).drain();
    const toBob = cap.sent.filter((m) => m.to === 'bob@example.org' || m.to === '+15550100002').map((m) => m.to);
    const textToCy = cap.sent.filter((m) => m.to === '+15550100003').map((m) => m.to);
    expect({ toBob, textToCy }).toEqual({ toBob: [], textToCy: [] });
  });
});

describe('loops and numbers', () => {
  it('a step visited twice in one run (a loop through a branch) sends each time it says ok', async () => {
    await startEngine(t.db, engines);
    const { runs } = await enroll('loop', [c('hal')]);
    const d = await waitStatus(runs[0].id, 'succeeded');
    const oks = d.steps.filter((s: any) => s.step_id === 'e1' && s.status === 'ok').length;
    expect(oks).toBe(2);
    const rows = await t.db.query<{ n: number }>(`select count(*)::int as n from outbox where automation_run_id = $1 and channel = 'email'`, [runs[0].id]);
    expect(rows[0].n).toBe(oks);
  });

  it('STOP from +1 5550100008 stops texts to a contact stored as 1 555 010 0008 (same number)', async () => {
    const app = await createApp(configWith({ rateLimitStore: 'memory', delivery: { ...t.config.delivery, inboundSmsSecret: SECRET } }), t.db);
    const r = await app.inject({
      method: 'POST', url: '/inbound/sms', headers: { 'content-type': 'application/json', [INBOUND_SMS_SECRET_HEADER]: SECRET },
      payload: JSON.stringify({ from: '+15550100008', text: 'STOP' }),
    });
    await app.close();
    await startEngine(t.db, engines);
    const { runs } = await enroll('both', [c('gil')]);
    const d = await waitStatus(runs[0].id, 'succeeded');
    expect({ inbound: r.json(), s1: d.steps.find((s: any) => s.step_id === 's1').status }).toEqual({ inbound: { action: 'stopped', contacts: 1 }, s1: 'skipped' });
  });
});

