// One-time set-password links: issued by the users service (only the hash stored), read by
// GET /hub/api/set-password/{token}, used by POST /hub/api/set-password, which sets the password,
// uses the link up, ends the user's sessions, records user.password_set and signs the user in.
// An unknown, used or expired link is 410 invalid_link; the token never reaches the request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/domain/hub.js';
import { loggableUrl } from '../../src/http/log-redaction.js';
import { issueSetPasswordLink } from '../../src/services/users/links.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, HUB_ORIGIN } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let acme: { id: string; users: Record<string, string> };
const PW = 'a brand new password';

beforeAll(async () => {
  t = await testApp();
  const s = await seed(t.db, {
    ref: 'acme',
    name: 'Acme',
    users: [
      { ref: 'owner', email: 'owner@acme.example', role: 'owner', password: 'owner password 1', name: '' },
      { ref: 'ivy', email: 'ivy@acme.example', role: 'member', password: null, name: 'Ivy Invited' },
      { ref: 'old', email: 'old@acme.example', role: 'admin', password: 'the old password', name: '' },
    ],
    keys: [],
  });
  acme = s.acme;
});
afterAll(() => t?.close());

async function link(user: string): Promise<{ url: string; token: string }> {
  return t.db.transaction((tx) => issueSetPasswordLink(tx, acme.id, acme.users[user], 'http://127.0.0.1:8080'));
}
const read = (token: string) => t.app.inject({ method: 'GET', url: `/hub/api/set-password/${encodeURIComponent(token)}` });
const use = (token: string, password = PW, headers: Record<string, string> = { origin: HUB_ORIGIN }) =>
  t.app.inject({ method: 'POST', url: '/hub/api/set-password', headers, payload: { token, password } });

describe('set-password links', () => {
  it('are issued as a URL to the set-password page; only the hash is stored', async () => {
    const l = await link('ivy');
    expect(l.url).toMatch(/\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(l.url.endsWith(l.token)).toBe(true);
    const rows = await t.db.query<{ token_hash: Uint8Array; purpose: string; expires_at: Date }>(`select token_hash, purpose, expires_at from user_tokens where user_id = $1`, [acme.users.ivy]);
    expect(rows.some((r) => Buffer.from(r.token_hash).toString('utf8').includes(l.token))).toBe(false);
    expect(rows.at(-1)!.purpose).toBe('set_password');
    const days = (rows.at(-1)!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('say whom they are for; set the password once, sign the user in, record it, and are then used up', async () => {
    const l = await link('ivy');
    const who = await read(l.token);
    expect(who.statusCode, who.body).toBe(200);
    expect(who.json()).toMatchObject({ account_id: acme.id, account_name: 'Acme', email: 'ivy@acme.example', name: 'Ivy Invited' });
    const res = await use(l.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: 'ivy@acme.example', account: { account_id: acme.id, role: 'member' } });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    expect((await t.app.inject({ method: 'GET', url: '/hub/api/session', headers: { cookie: `${SESSION_COOKIE}=${cookie}` } })).statusCode).toBe(200);
    // The password works for sign-in.
    const signIn = await t.app.inject({ method: 'POST', url: '/hub/api/session', headers: { origin: HUB_ORIGIN }, payload: { email: 'ivy@acme.example', password: PW } });
    expect(signIn.statusCode).toBe(200);
    const audit = await t.db.query<{ action: string; actor_id: string; object_id: string; actor_label: string }>(
      `select action, actor_id, object_id, actor_label from audit_log where action = 'user.password_set'`,
    );
    expect(audit).toEqual([{ action: 'user.password_set', actor_id: acme.users.ivy, object_id: acme.users.ivy, actor_label: 'Ivy Invited <ivy@acme.example>' }]);
    // Used: neither read nor usable again.
    expectError(await read(l.token), 410, 'invalid_request', 'invalid_link');
    expectError(await use(l.token, 'yet another password'), 410, 'invalid_request', 'invalid_link');
  });

  it('end every session of the user, and void the user\'s other links', async () => {
    const before = await hubClient(t, { accountId: acme.id, userId: acme.users.old, email: 'old@acme.example' });
    expect((await before.get('/hub/api/session')).statusCode).toBe(200);
    const [first, second] = [await link('old'), await link('old')];
    expect((await use(second.token)).statusCode).toBe(200);
    expectError(await before.get('/hub/api/session'), 401, 'authentication', 'not_signed_in');
    expectError(await read(first.token), 410, 'invalid_request', 'invalid_link');
  });

  it('refuse an unknown, malformed or expired link (410 invalid_link)', async () => {
    expectError(await read('A'.repeat(43)), 410, 'invalid_request', 'invalid_link');
    expectError(await read('not a token'), 410, 'invalid_request', 'invalid_link');
    expectError(await use('A'.repeat(43)), 410, 'invalid_request', 'invalid_link');
    const l = await link('owner');
    await t.db.query(`update user_tokens set expires_at = now() - interval '1 second' where user_id = $1`, [acme.users.owner]);
    expectError(await read(l.token), 410, 'invalid_request', 'invalid_link');
    expectError(await use(l.token), 410, 'invalid_request', 'invalid_link');
  });

  it('check the password rule before using the link, and need a same-origin Origin', async () => {
    const l = await link('ivy');
    expectError(await use(l.token, 'short'), 422, 'invalid_request', 'invalid_field', 'password');
    expectError(await use(l.token, PW, { origin: 'https://evil.example' }), 403, 'permission', 'csrf_failed');
    expectError(await use(l.token, PW, {}), 403, 'permission', 'csrf_failed');
    expect((await read(l.token)).statusCode).toBe(200); // still live
  });

  it('never put the token in the request log', () => {
    const token = 'Z'.repeat(43);
    expect(loggableUrl({ url: `/set-password?token=${token}&x=1` })).toBe('/set-password?token=[redacted]&x=1');
    expect(loggableUrl({ url: `/set-password?a=b&%74oken=${token}` })).toBe('/set-password?a=b&%74oken=[redacted]');
    expect(loggableUrl({ url: `/hub/api/set-password/${token}`, routeOptions: { url: '/hub/api/set-password/:token' } })).toBe('/hub/api/set-password/[redacted]');
    expect(loggableUrl({ url: '/runs?status=failed' })).toBe('/runs?status=failed');
  });
});
