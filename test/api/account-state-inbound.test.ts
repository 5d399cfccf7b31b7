// Requests that act for an account outside /v1 follow the API's account rule (src/http/pipeline.ts):
// a webhook trigger of a suspended, closed or lapsed (or ended) account answers the same 403 as
// POST /v1/contacts and creates no contact and no run. Inbound SMS: a STOP is an opt-out and is
// recorded whatever the account's state; a START is not applied to an account that is not active.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_SMS_SECRET_HEADER } from '../../src/api/inbound/routes.js';
import { accountCommand } from '../../src/cli/account.js';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { configWith } from '../../src/config.js';
import type { App } from '../../src/http/app.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { createApp } from '../../src/server.js';
import { testApp, type TestApp } from '../helpers/app.js';

const SECRET = 'inbound-secret-0123456789';
let t: TestApp;
let inbound: App;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
let url: string;

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, 'erasure');
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            projects: [{ ref: 'p', name: 'P' }],
            keys: [{ ref: 'k', name: 'k', scopes: ['contacts:write', 'contacts:read'] }],
            automations: [
              {
                ref: 'form',
                name: 'Form',
                project: 'p',
                status: 'published',
                trigger: { type: 'webhook', label: 'Form posted' },
                steps: [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }],
              },
            ],
            contacts: [{ ref: 'pat', email: 'pat@example.org', phone: '+15550123456', sms_consent: 'granted' }],
          },
        ],
      },
      { erasureSecret: erasure.secret },
    )
  ).accounts;
  const out = await runOperatorCommand(t.db, ['automations', 'webhook', S.a.automations.form, '--account', S.a.id]);
  expect(out.code).toBe(0);
  url = /\/hooks\/automations\/[A-Za-z0-9_-]+/.exec(out.stdout)![0];
  inbound = await createApp(configWith({ rateLimitStore: 'memory', delivery: { ...t.config.delivery, inboundSmsSecret: SECRET } }), t.db);
});
afterAll(async () => {
  await inbound?.close();
  await t?.close();
});

async function set(...args: string[]): Promise<void> {
  const r = await accountCommand(t.db, ['set', '--account', S.a.id, ...args]);
  expect(r.code, r.stderr).toBe(0);
}

const hook = (email: string) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, first_name: 'New' }) });
const apiCreate = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/contacts',
    headers: { authorization: `Bearer ${S.a.keys.k}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ email }),
  });
const contactsNamed = async (email: string) => (await t.db.query(`select 1 from contacts where email = $1`, [email])).length;
const runs = async () => (await t.db.query(`select 1 from automation_runs where automation_id = $1`, [S.a.automations.form])).length;

describe('webhook triggers follow the account rule', () => {
  it.each([
    ['suspended', 'account_suspended', ['--state', 'suspended']],
    ['closed', 'account_closed', ['--state', 'closed']],
    ['lapsed', 'subscription_inactive', ['--subscription', 'lapsed']],
    ['ended', 'subscription_inactive', ['--subscription', 'ended']],
  ])('a %s account: 403 %s, as the API answers; no contact, no run', async (name, code, args) => {
    await set(...args);
    const email = `hook-${name}@example.org`;
    const before = await runs();
    const res = await hook(email);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code, type: 'permission' });
    expect(res.json().error.request_id).toBe(res.headers['x-request-id']);
    // The same answer as the API's for the same write.
    const api = await apiCreate(`api-${email}`);
    expect([api.statusCode, api.json().error.code]).toEqual([403, code]);
    expect(api.json().error.message).toBe(res.json().error.message);
    expect(await contactsNamed(email)).toBe(0);
    expect(await runs()).toBe(before);
    await set('--state', 'active', '--subscription', 'active');
  });

  it('an active account: 202, contact created and run started', async () => {
    const res = await hook('hook-active@example.org');
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ contact_created: true, status: 'started' });
    expect(await contactsNamed('hook-active@example.org')).toBe(1);
  });
});

describe('inbound SMS and the account rule', () => {
  const sms = (text: string) =>
    inbound.inject({
      method: 'POST',
      url: '/inbound/sms',
      headers: { 'content-type': 'application/json', [INBOUND_SMS_SECRET_HEADER]: SECRET },
      payload: JSON.stringify({ from: '+15550123456', text }),
    });
  const stopped = async () =>
    (await t.db.query<{ s: boolean }>(`select sms_stopped as s from contacts where id = $1`, [S.a.contacts.pat]))[0].s;

  it('STOP to a suspended account is recorded (an opt-out is always honoured); START is not applied until it is active', async () => {
    await set('--state', 'suspended');
    expect((await sms('STOP')).json()).toEqual({ action: 'stopped', contacts: 1 });
    expect(await stopped()).toBe(true);
    expect((await sms('START')).json()).toEqual({ action: 'started', contacts: 0 });
    expect(await stopped()).toBe(true);
    await set('--state', 'active');
    expect((await sms('START')).json()).toEqual({ action: 'started', contacts: 1 });
    expect(await stopped()).toBe(false);
  });
});
