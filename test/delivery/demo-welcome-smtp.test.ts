// Issue 4's SMTP acceptance as a test: the demo's published welcome automation, contacts enrolled
// through the API, the engine and the sender running with the SMTP transport against a real SMTP
// server on loopback: one email reaches the contact, none reaches the do-not-contact one.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, type Sender } from '../../src/delivery/sender.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { headersOf, startSmtp, type TestSmtp } from './support.js';

let t: TestApp;
let smtp: TestSmtp;
let engine: Engine;
let sender: Sender;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await testApp();
  const config = {
    ...t.config,
    engine: { ...t.config.engine, pollMs: 50 },
    delivery: { ...t.config.delivery, emailTransport: 'smtp' as const, smtpUrl: smtp.url, emailFrom: 'hello@demo.example' },
  };
  engine = createEngine(t.db, config);
  sender = createSender(t.db, config);
  await engine.start();
  await sender.start();
});
afterAll(async () => {
  await engine?.stop();
  await sender?.stop();
  await t?.close();
  await smtp?.close();
});

describe('the demo welcome automation over SMTP', () => {
  it('delivers one email to an enrolled contact and none to a do-not-contact one', async () => {
    const demo = JSON.parse(fs.readFileSync(new URL('../../examples/demo.json', import.meta.url), 'utf8'));
    const a = (await seedFixture(t.db, demo, { erasureSecret: Buffer.from('t') })).accounts.demo;
    const r = await t.app.inject({
      method: 'POST',
      url: `/v1/automations/${a.automations.welcome}/enrollments`,
      headers: { authorization: `Bearer ${a.keys.integration}`, 'idempotency-key': 'demo-welcome-1', 'content-type': 'application/json' },
      payload: JSON.stringify({ contact_ids: [a.contacts.ann, a.contacts.bob] }),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().enrolled).toBe(2);
    const [annRun, bobRun] = r.json().runs.map((x: { id: string }) => x.id);

    const deadline = Date.now() + 15_000;
    const detail = async (id: string) =>
      (await t.app.inject({ method: 'GET', url: `/v1/automation-runs/${id}`, headers: { authorization: `Bearer ${a.keys.integration}` } })).json();
    let ann = await detail(annRun);
    let bob = await detail(bobRun);
    while ((ann.status !== 'waiting' || bob.status !== 'waiting' || smtp.received.length < 1) && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 100));
      ann = await detail(annRun);
      bob = await detail(bobRun);
    }
    // Both wait a day after the email step; Ann's email went out, Bob's was skipped.
    expect(ann.status).toBe('waiting');
    expect(bob.status).toBe('waiting');
    const step = (run: { steps: { step_id: string; status: string; error: string | null }[] }, id: string) => run.steps.find((s) => s.step_id === id)!;
    expect(step(ann, 'e1')).toMatchObject({ status: 'ok', error: null });
    expect(step(bob, 'e1').status).toBe('skipped');
    expect(step(bob, 'e1').error).toMatch(/do-not-contact/);
    await new Promise((res) => setTimeout(res, 300)); // nothing more is on its way
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0].to).toEqual(['ann@example.org']);
    const h = headersOf(smtp.received[0].raw);
    expect(h.get('list-unsubscribe')).toMatch(/^<http.*\/unsubscribe\/.+>$/);
    expect(h.get('from')).toContain('hello@demo.example');
  });
});
