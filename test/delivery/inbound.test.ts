// The inbound routes outside /v1: unsubscribe links (GET page, one-click POST, tampered tokens)
// and the SMS webhook (secret, size cap, STOP and its synonyms, START).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_SMS_SECRET_HEADER, smsKeyword } from '../../src/api/inbound/routes.js';
import { forgetUnsubscribeSecrets, unsubscribeHeaders, unsubscribeToken } from '../../src/delivery/unsubscribe.js';
import { rotateSecret } from '../../src/secrets/store.js';
import { configWith } from '../../src/config.js';
import type { App } from '../../src/http/app.js';
import { createApp } from '../../src/server.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { seedContacts, type Seeded } from './support.js';

const SECRET = 'inbound-secret-0123456789';
let t: TestApp;
let seeded: Seeded;

beforeAll(async () => {
  t = await testApp({});
  seeded = await seedContacts(t.db);
});

afterAll(async () => {
  await t?.close();
});

async function contact(accountId: string, id: string) {
  const rows = await t.db.query<{ email_opt_out: boolean; sms_stopped: boolean; updated_at: Date }>(
    `select email_opt_out, sms_stopped, updated_at from contacts where account_id = $1 and id = $2`,
    [accountId, id],
  );
  return rows[0];
}

function expectError(res: { statusCode: number; json(): any; headers: Record<string, unknown> }, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(res.headers['x-request-id']);
}

describe('unsubscribe links', () => {
  it('GET shows a confirmation page and changes nothing', async () => {
    const { link } = await unsubscribeHeaders(t.db, t.config, seeded.accountId, seeded.contacts.ann);
    const path = new URL(link).pathname;
    const res = await t.app.inject({ method: 'GET', url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).toContain('<form method="post">');
    expect(res.body).not.toContain('ann@example.org');
    expect((await contact(seeded.accountId, seeded.contacts.ann)).email_opt_out).toBe(false);
  });

  it('one-click POST (RFC 8058 form body) sets the opt-out; repeating it is harmless', async () => {
    const { link } = await unsubscribeHeaders(t.db, t.config, seeded.accountId, seeded.contacts.ann);
    const path = new URL(link).pathname;
    const post = () =>
      t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    const res = await post();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('You are unsubscribed');
    const after = await contact(seeded.accountId, seeded.contacts.ann);
    expect(after.email_opt_out).toBe(true);
    const again = await post();
    expect(again.statusCode).toBe(200);
    // Idempotent: the second POST changes nothing, not even updated_at.
    expect((await contact(seeded.accountId, seeded.contacts.ann)).updated_at).toEqual(after.updated_at);
    // Only that contact of that account: the same address in another account is untouched.
    expect((await contact(seeded.otherAccountId, seeded.otherContacts.ann2)).email_opt_out).toBe(false);
    // A POST with no body at all (a browser form without fields) works too.
    const { link: bobLink } = await unsubscribeHeaders(t.db, t.config, seeded.accountId, seeded.contacts.bob);
    expect((await t.app.inject({ method: 'POST', url: new URL(bobLink).pathname })).statusCode).toBe(200);
    expect((await contact(seeded.accountId, seeded.contacts.bob)).email_opt_out).toBe(true);
  });

  it('a tampered, foreign or malformed token is 404 in the error shape', async () => {
    const token = await unsubscribeToken(t.db, seeded.accountId, seeded.contacts.cy);
    const [payload, mac] = token.split('.');
    // Point the payload at another contact while keeping the MAC.
    const other = await unsubscribeToken(t.db, seeded.otherAccountId, seeded.otherContacts.ann2);
    const swapped = `${other.split('.')[0]}.${mac}`;
    const flipped = `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    for (const bad of [swapped, flipped, 'nonsense', `${payload}.`, 'a'.repeat(300)]) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await t.app.inject({ method, url: `/unsubscribe/${bad}` });
        expectError(res, 404, 'resource_not_found');
      }
    }
    expect((await contact(seeded.accountId, seeded.contacts.cy)).email_opt_out).toBe(false);
    expect((await contact(seeded.otherAccountId, seeded.otherContacts.ann2)).email_opt_out).toBe(false);
  });

  it('links made before a secret rotation keep working', async () => {
    const before = await unsubscribeToken(t.db, seeded.accountId, seeded.contacts.cy);
    await rotateSecret(t.db, 'unsubscribe');
    forgetUnsubscribeSecrets(t.db); // as after the cache's minute
    const after = await unsubscribeToken(t.db, seeded.accountId, seeded.contacts.cy);
    expect(after).not.toBe(before);
    for (const token of [before, after]) {
      expect((await t.app.inject({ method: 'GET', url: `/unsubscribe/${token}` })).statusCode).toBe(200);
    }
  });

  it('is outside the API: no API key needed, and /v1 is unaffected', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/unsubscribe' });
    expectError(res, 404, 'route_not_found');
    const put = await t.app.inject({ method: 'PUT', url: '/unsubscribe/x' });
    expectError(put, 405, 'method_not_allowed');
  });
});

describe('inbound SMS webhook', () => {
  let app: App;
  beforeAll(async () => {
    // A second app over the same store, with the inbound secret configured.
    const config = configWith({ rateLimitStore: 'memory', delivery: { ...t.config.delivery, inboundSmsSecret: SECRET } });
    app = await createApp(config, t.db);
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (payload: unknown, secret: string | null = SECRET, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/inbound/sms',
      headers: { 'content-type': 'application/json', ...(secret === null ? {} : { [INBOUND_SMS_SECRET_HEADER]: secret }), ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });

  it('knows STOP and its synonyms, START and UNSTOP, in any case, trimmed', () => {
    for (const w of ['STOP', 'stop', ' Stop ', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit', 'STOP.']) expect(smsKeyword(w)).toBe('stop');
    for (const w of ['START', ' unstop ']) expect(smsKeyword(w)).toBe('start');
    for (const w of ['please stop', 'stopping', 'hello', '']) expect(smsKeyword(w)).toBeNull();
  });

  it('STOP stops SMS to every contact with that number; START lifts it', async () => {
    const res = await post({ from: '+1 555 010 0001', to: '+15550199999', text: '  stop ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ action: 'stopped', contacts: 2 });
    expect((await contact(seeded.accountId, seeded.contacts.ann)).sms_stopped).toBe(true);
    // No account owns a number yet: the same number in another account is stopped too (documented).
    expect((await contact(seeded.otherAccountId, seeded.otherContacts.ann2)).sms_stopped).toBe(true);
    expect((await contact(seeded.accountId, seeded.contacts.bob)).sms_stopped).toBe(false);

    // Bob's number is stored formatted; it matches by its digits.
    expect((await post({ from: '+15550100002', text: 'CANCEL' })).json()).toEqual({ action: 'stopped', contacts: 1 });
    expect((await contact(seeded.accountId, seeded.contacts.bob)).sms_stopped).toBe(true);

    expect((await post({ from: '+15550100001', text: 'Start', provider_id: 'SM123' })).json()).toEqual({ action: 'started', contacts: 2 });
    expect((await contact(seeded.accountId, seeded.contacts.ann)).sms_stopped).toBe(false);
    expect((await post({ from: '+15550100001', text: 'thanks!' })).json()).toEqual({ action: 'none', contacts: 0 });
    expect((await post({ from: '+19999999999', text: 'STOP' })).json()).toEqual({ action: 'stopped', contacts: 0 });
  });

  it('refuses a missing or wrong secret before reading the body', async () => {
    expectError(await post({ from: '+15550100001', text: 'STOP' }, null), 401, 'invalid_api_key');
    expectError(await post({ from: '+15550100001', text: 'STOP' }, SECRET + 'x'), 401, 'invalid_api_key');
    expectError(await post('{not json', 'wrong-secret-wrong-secret'), 401, 'invalid_api_key');
    expect((await contact(seeded.accountId, seeded.contacts.ann)).sms_stopped).toBe(false);
  });

  it('validates the body and caps its size', async () => {
    expectError(await post({ text: 'STOP' }), 400, 'missing_field');
    expectError(await post({ from: 'abc', text: 'STOP' }), 422, 'invalid_field');
    expectError(await post('{not json'), 400, 'invalid_json');
    expectError(await post({ from: '+15550100001', text: 'x'.repeat(20_000) }), 413, 'body_too_large');
  });

  it('is off (404) when no secret is configured', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/inbound/sms',
      headers: { 'content-type': 'application/json', [INBOUND_SMS_SECRET_HEADER]: SECRET },
      payload: JSON.stringify({ from: '+15550100001', text: 'STOP' }),
    });
    expectError(res, 404, 'route_not_found');
  });
});
