// New set-password links: sent per user by owners and admins (POST /hub/api/users/{id}/set-password-link)
// and asked for on the sign-in page (GET/POST /hub/api/forgot-password). By intent: happy path,
// who may (roles, another account, signed out, CSRF), hostile input (oversized, malformed,
// replayed), throttles (429), and that the forgot-password answer never says whether an address exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { FORGOT_PASSWORD_PER_ADDRESS, FORGOT_PASSWORD_PER_EMAIL } from '../../src/domain/hub.js';
import { hashPassword } from '../../src/lib/password.js';
import { createApp } from '../../src/server.js';
import { makeAccount, type TestAccount } from '../cli/support.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, minuteWindows, HUB_ORIGIN, type HubClient } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';

// The main app sends real email (SMTP; nothing leaves: the outbox only queues in these tests).
let t: TestApp;
// The throttles' clock: each test that counts requests starts its own minute window.
const minutes = minuteWindows();
beforeAll(async () => {
  const base = configWith({});
  t = await testApp({ delivery: { ...base.delivery, emailTransport: 'smtp', smtpUrl: 'smtp://127.0.0.1:2525', publicUrl: 'https://hub.example.test', publicUrlSet: true } }, { counterClock: minutes.clock });
});
afterAll(() => t?.close());

const as = (a: TestAccount, role: 'owner' | 'admin' | 'member'): Promise<HubClient> =>
  hubClient(t, { accountId: a.id, userId: a[role], email: `${role}@test.example` });
const outbox = (accountId: string) =>
  t.db.query<{ to_address: string; subject: string; body: string; channel: string }>(
    `select to_address, subject, body, channel from outbox where account_id = $1 order by created_at, id`,
    [accountId],
  );
const audit = (accountId: string, action: string) =>
  t.db.query<{ actor_id: string; object_id: string; detail: Record<string, unknown> }>(
    `select actor_id, object_id, detail from audit_log where account_id = $1 and action = $2 order by at, id`,
    [accountId, action],
  );
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const usePassword = (token: string, password: string, app = t.app) =>
  app.inject({ method: 'POST', url: '/hub/api/set-password', headers: { origin: HUB_ORIGIN }, payload: { token, password } });
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/hub/api/session', remoteAddress: '198.51.100.77', headers: { origin: HUB_ORIGIN }, payload: { email, password } });

describe('a new set-password link from Users', () => {
  it('owner to member: 201 with a one-time link, emailed, audited; the old password works until it is used, then not', async () => {
    const a = await makeAccount(t.db);
    await t.db.query(`update users set password_hash = $2 where id = $1`, [a.member, await hashPassword('the old password')]);
    const res = await (await as(a, 'owner')).post(`/hub/api/users/${a.member}/set-password-link`);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ user: { id: a.member, email: 'member@test.example', has_password: true }, emailed: true });
    expect(body.set_password_url).toMatch(/^https:\/\/hub\.example\.test\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    const mail = await outbox(a.id);
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to_address: 'member@test.example', channel: 'team' });
    expect(mail[0].body).toContain(body.set_password_url);
    expect(await audit(a.id, 'user.password_link_sent')).toEqual([{ actor_id: a.owner, object_id: a.member, detail: { email: 'member@test.example', emailed: true } }]);
    expect((await signIn('member@test.example', 'the old password')).statusCode).toBe(200);
    expect((await usePassword(tokenOf(body.set_password_url), 'the new password')).statusCode).toBe(200);
    expect((await signIn('member@test.example', 'the new password')).statusCode).toBe(200);
    expectError(await signIn('member@test.example', 'the old password'), 401, 'authentication', 'sign_in_failed');
    // Replayed: the link is used up.
    expectError(await usePassword(tokenOf(body.set_password_url), 'a third password'), 410, 'invalid_request', 'invalid_link');
  });

  it('voids the earlier unused links of the user (an invitation included)', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    const invited = await owner.post('/hub/api/users', { email: 'late@test.example', role: 'member' });
    const first = await owner.post(`/hub/api/users/${invited.json().user.id}/set-password-link`);
    const second = await owner.post(`/hub/api/users/${invited.json().user.id}/set-password-link`);
    expectError(await usePassword(tokenOf(invited.json().set_password_url), 'a good password'), 410, 'invalid_request', 'invalid_link');
    expectError(await usePassword(tokenOf(first.json().set_password_url), 'a good password'), 410, 'invalid_request', 'invalid_link');
    expect((await usePassword(tokenOf(second.json().set_password_url), 'a good password')).statusCode).toBe(200);
  });

  it('with the development outbox: shown only, nothing queued', async () => {
    const dev = await createApp(configWith({ rateLimitStore: 'memory' }), t.db);
    try {
      const a = await makeAccount(t.db);
      const c = await hubClient({ ...t, app: dev }, { accountId: a.id, userId: a.admin, email: 'admin@test.example' });
      const res = await c.post(`/hub/api/users/${a.member}/set-password-link`);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().emailed).toBe(false);
      expect(await outbox(a.id)).toEqual([]);
    } finally {
      await dev.close();
    }
  });

  it('who may: owners anyone, admins members and admins but not owners, members no one', async () => {
    const a = await makeAccount(t.db);
    const [owner, admin, member] = [await as(a, 'owner'), await as(a, 'admin'), await as(a, 'member')];
    for (const id of [a.owner, a.admin, a.member]) expect((await owner.post(`/hub/api/users/${id}/set-password-link`)).statusCode).toBe(201);
    expect((await admin.post(`/hub/api/users/${a.member}/set-password-link`)).statusCode).toBe(201);
    expect((await admin.post(`/hub/api/users/${a.admin}/set-password-link`)).statusCode).toBe(201);
    const e = expectError(await admin.post(`/hub/api/users/${a.owner}/set-password-link`), 403, 'permission', 'role_forbidden');
    expect(e.message).toMatch(/Only an owner/);
    expectError(await member.post(`/hub/api/users/${a.member}/set-password-link`), 403, 'permission', 'role_forbidden');
  });

  it("another account's user is 404; signed out is 401; without the CSRF token or Origin 403; a malformed id 400", async () => {
    const [a, b] = [await makeAccount(t.db), await makeAccount(t.db)];
    const owner = await as(a, 'owner');
    expectError(await owner.post(`/hub/api/users/${b.member}/set-password-link`), 404, 'not_found', 'resource_not_found');
    expect(await outbox(b.id)).toEqual([]);
    expectError(
      await t.app.inject({ method: 'POST', url: `/hub/api/users/${a.member}/set-password-link`, headers: { origin: HUB_ORIGIN } }),
      401, 'authentication', 'not_signed_in',
    );
    expectError(await owner.request({ method: 'POST', url: `/hub/api/users/${a.member}/set-password-link`, headers: { 'x-csrf-token': '' } }), 403, 'permission', 'csrf_failed');
    expectError(await owner.request({ method: 'POST', url: `/hub/api/users/${a.member}/set-password-link`, headers: { origin: 'https://evil.example' } }), 403, 'permission', 'csrf_failed');
    expect((await owner.post('/hub/api/users/not-a-uuid/set-password-link')).statusCode).toBe(400);
    expect(await audit(a.id, 'user.password_link_sent')).toEqual([]);
  });
});

const forgot = (email: unknown, remoteAddress: string, app = t.app) =>
  app.inject({ method: 'POST', url: '/hub/api/forgot-password', remoteAddress, headers: { origin: HUB_ORIGIN }, payload: { email } as object });

/** Waits (polling, never a fixed sleep) until `check` passes. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not reached');
}

describe('forgot password', () => {
  it('says whether it can email (SMTP: yes; the development outbox: no, and then sends nothing)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/hub/api/forgot-password' })).json()).toEqual({ sends_email: true });
    const dev = await createApp(configWith({ rateLimitStore: 'memory' }), t.db);
    try {
      const a = await makeAccount(t.db);
      await t.db.query(`update users set email = 'dev-only@test.example' where id = $1`, [a.member]);
      expect((await dev.inject({ method: 'GET', url: '/hub/api/forgot-password' })).json()).toEqual({ sends_email: false });
      const res = await forgot('dev-only@test.example', '192.0.2.50', dev);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toEqual({ sends_email: false });
      await dev.close(); // waits for any work after the answer: there must be none
      expect(await outbox(a.id)).toEqual([]);
      expect(await t.db.query(`select 1 from user_tokens where user_id = $1`, [a.member])).toEqual([]);
    } finally {
      await dev.close();
    }
  });

  it('emails one link per user with the address, each in its own account; the same answer for an unknown address', async () => {
    minutes.fresh(); // its own minute of the throttles' counts
    const [a, b] = [await makeAccount(t.db), await makeAccount(t.db)];
    await t.db.query(`update users set email = 'Both.Places@test.example' where id = any ($1::uuid[])`, [[a.member, b.admin]]);
    const unknown = await forgot('nobody-at-all@test.example', '192.0.2.60');
    const known = await forgot('both.places@TEST.example', '192.0.2.60');
    for (const r of [unknown, known]) {
      expect(r.statusCode, r.body).toBe(202);
      expect(r.json()).toEqual({ sends_email: true });
    }
    expect(unknown.body).toBe(known.body);
    const [ma, mb] = [await until(() => outbox(a.id), (m) => m.length > 0), await until(() => outbox(b.id), (m) => m.length > 0)];
    expect(ma).toHaveLength(1);
    expect(mb).toHaveLength(1);
    expect(ma[0]).toMatchObject({ to_address: 'Both.Places@test.example', channel: 'team' });
    // Each email names its own account only, and its link sets that user's password.
    expect(ma[0].body).toContain('"Test account"');
    const link = /https:\/\/hub\.example\.test\/set-password\?token=([A-Za-z0-9_-]{43})/.exec(ma[0].body)![1];
    const who = await t.app.inject({ method: 'GET', url: `/hub/api/set-password/${link}` });
    expect(who.json()).toMatchObject({ account_id: a.id, email: 'Both.Places@test.example' });
    expect(await audit(a.id, 'user.password_link_requested')).toEqual([{ actor_id: a.member, object_id: a.member, detail: { email: 'Both.Places@test.example', emailed: true } }]);
    // The unknown address was handled first (one job after another): nothing anywhere for it.
    expect(await t.db.query(`select 1 from outbox where to_address = 'nobody-at-all@test.example'`)).toEqual([]);
  });

  it('sends a user at most one such email in a while, and leaves their earlier links working', async () => {
    minutes.fresh(); // its own minute of the throttles' counts
    const a = await makeAccount(t.db);
    const sent = await (await as(a, 'owner')).post(`/hub/api/users/${a.member}/set-password-link`);
    await t.db.query(`update user_tokens set created_at = now() - interval '1 hour' where user_id = $1`, [a.member]);
    await t.db.query(`delete from outbox where account_id = $1`, [a.id]);
    expect((await forgot('member@test.example', '192.0.2.61')).statusCode).toBe(202);
    await until(() => outbox(a.id), (m) => m.length === 1);
    // Again at once: answered the same, nothing more sent (a later request for another address proves the first was handled).
    const b = await makeAccount(t.db);
    await t.db.query(`update users set email = 'marker@test.example' where id = $1`, [b.member]);
    expect((await forgot('member@test.example', '192.0.2.61')).statusCode).toBe(202);
    expect((await forgot('marker@test.example', '192.0.2.61')).statusCode).toBe(202);
    await until(() => outbox(b.id), (m) => m.length === 1);
    expect(await outbox(a.id)).toHaveLength(1);
    // The owner's link still works: a stranger typing the address voids nothing.
    expect((await usePassword(tokenOf(sent.json().set_password_url), 'a fine new password')).statusCode).toBe(200);
  });

  it('refuses a malformed or oversized address, a malformed body (422 or 400), and a request without Origin (403)', async () => {
    expectError(await forgot('not an email', '192.0.2.70'), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await forgot(`${'x'.repeat(320)}@test.example`, '192.0.2.70'), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await forgot(42, '192.0.2.70'), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await forgot('', '192.0.2.70'), 422, 'invalid_request', 'invalid_field', 'email');
    const extra = await t.app.inject({ method: 'POST', url: '/hub/api/forgot-password', remoteAddress: '192.0.2.70', headers: { origin: HUB_ORIGIN }, payload: { email: 'a@test.example', admin: true } });
    expectError(extra, 422, 'invalid_request', 'unknown_field', 'admin');
    const raw = await t.app.inject({ method: 'POST', url: '/hub/api/forgot-password', remoteAddress: '192.0.2.70', headers: { origin: HUB_ORIGIN, 'content-type': 'application/json' }, payload: '{"email":' });
    expectError(raw, 400, 'invalid_request', 'invalid_json');
    const noOrigin = await t.app.inject({ method: 'POST', url: '/hub/api/forgot-password', remoteAddress: '192.0.2.70', payload: { email: 'a@test.example' } });
    expectError(noOrigin, 403, 'permission', 'csrf_failed');
  });

  it(`is limited per email (${FORGOT_PASSWORD_PER_EMAIL} a minute, from any address) and per address (${FORGOT_PASSWORD_PER_ADDRESS} a minute): 429 with Retry-After`, async () => {
    minutes.fresh(); // its own minute of the throttles' counts
    for (let i = 0; i < FORGOT_PASSWORD_PER_EMAIL; i++) expect((await forgot('target@test.example', `203.0.113.${i + 1}`)).statusCode).toBe(202);
    const res = await forgot('TARGET@test.example', '203.0.113.99');
    const e = expectError(res, 429, 'rate_limit', 'too_many_link_requests');
    expect(e.message).toMatch(/Wait \d+ seconds/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < FORGOT_PASSWORD_PER_ADDRESS; i++) expect((await forgot(`spray${i}@test.example`, '203.0.113.200')).statusCode).toBe(202);
    expectError(await forgot('one-more@test.example', '203.0.113.200'), 429, 'rate_limit', 'too_many_link_requests');
    // Another address and another email are not held back.
    expect((await forgot('someone-else@test.example', '203.0.113.201')).statusCode).toBe(202);
  });
});
