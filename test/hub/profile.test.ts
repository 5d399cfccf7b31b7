// "Your profile" (/hub/api/profile…), the public POST /hub/api/confirm-email, and an owner or
// admin changing a user's email (PUT /hub/api/users/{id}/email). By intent: happy path, errors,
// who may (roles, another account, signed out, CSRF), hostile input, the sign-in throttle on the
// current password, and a confirmation link's expiry and replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config.js';
import { SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS } from '../../src/domain/hub.js';
import { hashPassword } from '../../src/lib/password.js';
import { createApp } from '../../src/server.js';
import { makeAccount, type TestAccount } from '../cli/support.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, insideOneMinute, HUB_ORIGIN, type HubClient } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';

const PW = 'the current password';
let t: TestApp;
let pwHash: string;
beforeAll(async () => {
  const base = configWith({});
  t = await testApp({ delivery: { ...base.delivery, emailTransport: 'smtp', smtpUrl: 'smtp://127.0.0.1:2525', publicUrl: 'https://hub.example.test', publicUrlSet: true } });
  pwHash = await hashPassword(PW);
});
afterAll(() => t?.close());

type Account = TestAccount & { n: number };
let accounts = 0;
/** An account whose three users all have the password PW and addresses of their own (role + n). */
async function account(): Promise<Account> {
  const a = { ...(await makeAccount(t.db)), n: ++accounts };
  await t.db.query(`update users set password_hash = $2, email = role || $3 || '@test.example' where account_id = $1`, [a.id, pwHash, String(a.n)]);
  return a;
}
const mail = (a: Account, role: 'owner' | 'admin' | 'member') => `${role}${a.n}@test.example`;
const as = (a: Account, role: 'owner' | 'admin' | 'member', app = t): Promise<HubClient> =>
  hubClient(app, { accountId: a.id, userId: a[role], email: mail(a, role) });
const audit = (accountId: string, action: string) =>
  t.db.query<{ actor_id: string; object_id: string; detail: Record<string, unknown> }>(
    `select actor_id, object_id, detail from audit_log where account_id = $1 and action = $2 order by at, id`,
    [accountId, action],
  );
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/hub/api/session', remoteAddress: '198.51.100.90', headers: { origin: HUB_ORIGIN }, payload: { email, password } });
const confirm = (token: unknown) => t.app.inject({ method: 'POST', url: '/hub/api/confirm-email', headers: { origin: HUB_ORIGIN }, payload: { token } as object });
/** The confirmation link's token in the newest email to `to`. */
async function mailedToken(to: string): Promise<string> {
  const [m] = await t.db.query<{ body: string }>(`select body from outbox where to_address = $1 order by created_at desc, id desc limit 1`, [to]);
  return /confirm-email\?token=([A-Za-z0-9_-]{43})/.exec(m.body)![1];
}

describe('profile: read and rename', () => {
  it('reads your own user; renames you (audited); a member may', async () => {
    const a = await account();
    const me = await as(a, 'member');
    const res = await me.get('/hub/api/profile');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: a.member, email: mail(a, 'member'), name: '', role: 'member', account_name: 'Test account',
      pending_email: null, pending_email_expires_at: null, sends_email: true,
    });
    expect((await me.patch('/hub/api/profile', { name: 'Mia Member' })).statusCode).toBe(204);
    expect((await me.get('/hub/api/profile')).json().name).toBe('Mia Member');
    expect(await audit(a.id, 'user.name_changed')).toEqual([{ actor_id: a.member, object_id: a.member, detail: { from: '', to: 'Mia Member' } }]);
  });

  it('refuses a name on two lines or too long (422); signed out 401; no CSRF token 403', async () => {
    const a = await account();
    const me = await as(a, 'member');
    expect((await me.patch('/hub/api/profile', { name: 'two\nlines' })).statusCode).toBe(422);
    expect((await me.patch('/hub/api/profile', { name: 'x'.repeat(201) })).statusCode).toBe(422);
    expect((await me.patch('/hub/api/profile', { name: 'Fine', role: 'owner' })).statusCode).toBe(422);
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/profile' }), 401, 'authentication', 'not_signed_in');
    expectError(await me.request({ method: 'PATCH', url: '/hub/api/profile', payload: { name: 'X' }, headers: { 'x-csrf-token': 'wrong' } }), 403, 'permission', 'csrf_failed');
    expect((await me.get('/hub/api/profile')).json().name).toBe('');
  });
});

describe('profile: change your password', () => {
  it('with the right current password: set, audited, every other session of yours signed out, this one kept', async () => {
    const a = await account();
    const [me, other, otherUser] = [await as(a, 'admin'), await as(a, 'admin'), await as(a, 'member')];
    const res = await me.put('/hub/api/profile/password', { current_password: PW, new_password: 'a brand new password' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ other_sessions_ended: 1 });
    expect((await me.get('/hub/api/session')).statusCode).toBe(200);
    expectError(await other.get('/hub/api/session'), 401, 'authentication', 'not_signed_in');
    expect((await otherUser.get('/hub/api/session')).statusCode).toBe(200);
    expect((await signIn(mail(a, 'admin'), 'a brand new password')).statusCode).toBe(200);
    expectError(await signIn(mail(a, 'admin'), PW), 401, 'authentication', 'sign_in_failed');
    expect(await audit(a.id, 'user.password_changed')).toEqual([{ actor_id: a.admin, object_id: a.admin, detail: { other_sessions_ended: 1 } }]);
    // Passwords are never in the audit log.
    expect(JSON.stringify(await t.db.query(`select detail from audit_log where account_id = $1`, [a.id]))).not.toMatch(/password!|brand new/);
  });

  it('refuses a wrong current password (403 wrong_password, nothing changed) and a short new one (422)', async () => {
    const a = await account();
    const me = await as(a, 'member');
    const e = expectError(await me.put('/hub/api/profile/password', { current_password: 'not my password', new_password: 'a brand new password' }), 403, 'permission', 'wrong_password', 'current_password');
    expect(e.message).toMatch(/current password is not right/);
    expectError(await me.put('/hub/api/profile/password', { current_password: PW, new_password: 'short' }), 422, 'invalid_request', 'invalid_field', 'new_password');
    expect((await signIn(mail(a, 'member'), PW)).statusCode).toBe(200);
    expect((await me.put('/hub/api/profile/password', { current_password: PW })).statusCode).toBe(400);
    expect((await me.put('/hub/api/profile/password', { current_password: PW, new_password: 'x'.repeat(1025) })).statusCode).toBe(422);
    expect(await audit(a.id, 'user.password_changed')).toEqual([]);
  });

  it('counts wrong current passwords toward the sign-in throttle (429 after the limit, the right one too)', async () => {
    // Its own memory counter, from zero, on a clock that stays inside one minute window.
    const app = await createApp(t.config, t.db, { counterClock: insideOneMinute() });
    try {
      const a = await account();
      const me = await as(a, 'owner', { ...t, app });
      for (let i = 0; i < SIGN_IN_FAILURES_PER_EMAIL_AND_ADDRESS; i++) {
        expectError(await me.put('/hub/api/profile/password', { current_password: `wrong ${i} password`, new_password: 'a brand new password' }), 403, 'permission', 'wrong_password', 'current_password');
      }
      const res = await me.put('/hub/api/profile/password', { current_password: PW, new_password: 'a brand new password' });
      expectError(res, 429, 'rate_limit', 'too_many_sign_ins');
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      // Sign-in from the same address for the same email is held back too: the same counts.
      const signInThere = await app.inject({ method: 'POST', url: '/hub/api/session', headers: { origin: HUB_ORIGIN }, payload: { email: mail(a, 'owner'), password: PW } });
      expectError(signInThere, 429, 'rate_limit', 'too_many_sign_ins');
    } finally {
      await app.close();
    }
  });
});

describe('profile: change your email', () => {
  it('emails a link to the new address; the old email signs in until it is used; then the new one does; replay 410', async () => {
    const a = await account();
    const me = await as(a, 'member');
    const res = await me.post('/hub/api/profile/email', { email: 'Mia.New@test.example', current_password: PW });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ pending_email: 'Mia.New@test.example' });
    const hours = (Date.parse(res.json().expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await me.get('/hub/api/profile')).json()).toMatchObject({ email: mail(a, 'member'), pending_email: 'Mia.New@test.example' });
    expect((await signIn(mail(a, 'member'), PW)).statusCode).toBe(200);
    expectError(await signIn('mia.new@test.example', PW), 401, 'authentication', 'sign_in_failed');
    const token = await mailedToken('Mia.New@test.example');
    // A change_email link is no set-password link.
    expectError(await t.app.inject({ method: 'GET', url: `/hub/api/set-password/${token}` }), 410, 'invalid_request', 'invalid_link');
    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email: 'Mia.New@test.example', account_name: 'Test account' });
    expect((await signIn('mia.new@test.example', PW)).statusCode).toBe(200);
    expectError(await signIn(mail(a, 'member'), PW), 401, 'authentication', 'sign_in_failed');
    expect((await me.get('/hub/api/profile')).json()).toMatchObject({ email: 'Mia.New@test.example', pending_email: null });
    // The old address is told.
    const notice = await t.db.query<{ subject: string }>(`select subject from outbox where account_id = $1 and to_address = $2`, [a.id, mail(a, 'member')]);
    expect(notice.map((n) => n.subject)).toEqual(['Your email for Test account on Switchboard changed']);
    expect(await audit(a.id, 'user.email_change_requested')).toEqual([{ actor_id: a.member, object_id: a.member, detail: { from: mail(a, 'member'), to: 'Mia.New@test.example' } }]);
    expect(await audit(a.id, 'user.email_changed')).toEqual([{ actor_id: a.member, object_id: a.member, detail: { from: mail(a, 'member'), to: 'Mia.New@test.example', through: 'confirmation link' } }]);
    expectError(await confirm(token), 410, 'invalid_request', 'invalid_link');
  });

  it('refuses an address another user of the account has (409 user_exists), a wrong password (403), a bad address (422)', async () => {
    const a = await account();
    const me = await as(a, 'member');
    const taken = await me.post('/hub/api/profile/email', { email: mail(a, 'admin').toUpperCase(), current_password: PW });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'user_exists', resource_id: a.admin });
    expectError(await me.post('/hub/api/profile/email', { email: 'fresh@test.example', current_password: 'not my password' }), 403, 'permission', 'wrong_password', 'current_password');
    expectError(await me.post('/hub/api/profile/email', { email: 'not an email', current_password: PW }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await me.post('/hub/api/profile/email', { email: mail(a, 'member'), current_password: PW }), 422, 'invalid_request', 'invalid_field', 'email');
    expect((await me.post('/hub/api/profile/email', { email: `${'x'.repeat(320)}@test.example`, current_password: PW })).statusCode).toBe(422);
    // Another account's user with that address is no obstacle.
    const b = await account();
    expect((await (await as(b, 'member')).post('/hub/api/profile/email', { email: mail(a, 'member'), current_password: PW })).statusCode).toBe(202);
  });

  it('a link is one-time, replaced by a newer request, expires, and is refused if the address was taken meanwhile', async () => {
    const a = await account();
    const me = await as(a, 'member');
    await me.post('/hub/api/profile/email', { email: 'first@test.example', current_password: PW });
    const first = await mailedToken('first@test.example');
    await me.post('/hub/api/profile/email', { email: 'second@test.example', current_password: PW });
    const second = await mailedToken('second@test.example');
    expectError(await confirm(first), 410, 'invalid_request', 'invalid_link');
    await t.db.query(`update user_tokens set expires_at = now() - interval '1 second' where user_id = $1 and purpose = 'change_email' and used_at is null`, [a.member]);
    expectError(await confirm(second), 410, 'invalid_request', 'invalid_link');
    await me.post('/hub/api/profile/email', { email: 'third@test.example', current_password: PW });
    const third = await mailedToken('third@test.example');
    await t.db.query(`update users set email = 'third@test.example' where id = $1`, [a.admin]);
    const clash = await confirm(third);
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toMatchObject({ code: 'user_exists', resource_id: a.admin });
    expect((await me.get('/hub/api/profile')).json().email).toBe(mail(a, 'member'));
    for (const bad of ['', 'short', 'x'.repeat(201), 42]) expect([410, 422]).toContain((await confirm(bad)).statusCode);
    expectError(await confirm('A'.repeat(43)), 410, 'invalid_request', 'invalid_link');
  });

  it('without real email: refused with email_needs_delivery (409) before the password is checked', async () => {
    const dev = await createApp(configWith({ rateLimitStore: 'memory' }), t.db);
    try {
      const a = await account();
      const me = await as(a, 'member', { ...t, app: dev });
      expect((await me.get('/hub/api/profile')).json().sends_email).toBe(false);
      const e = expectError(await me.post('/hub/api/profile/email', { email: 'new@test.example', current_password: 'anything at all' }), 409, 'conflict', 'email_needs_delivery');
      expect(e.message).toMatch(/owner or admin/);
    } finally {
      await dev.close();
    }
  });
});

describe("an owner or admin changes a user's email on Users", () => {
  it('at once, audited; admins not an owner\'s; members no one; another account 404; user_exists 409', async () => {
    const [a, b] = [await account(), await account()];
    const [owner, admin, member] = [await as(a, 'owner'), await as(a, 'admin'), await as(a, 'member')];
    const res = await admin.put(`/hub/api/users/${a.member}/email`, { email: 'Moved@test.example' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: a.member, email: 'Moved@test.example' });
    expect((await signIn('moved@test.example', PW)).statusCode).toBe(200);
    expect(await audit(a.id, 'user.email_changed')).toEqual([{ actor_id: a.admin, object_id: a.member, detail: { from: mail(a, 'member'), to: 'Moved@test.example', through: 'set by an owner or admin' } }]);
    expectError(await admin.put(`/hub/api/users/${a.owner}/email`, { email: 'boss@test.example' }), 403, 'permission', 'role_forbidden');
    expect((await owner.put(`/hub/api/users/${a.owner}/email`, { email: 'boss@test.example' })).statusCode).toBe(200);
    expectError(await member.put(`/hub/api/users/${a.member}/email`, { email: 'x@test.example' }), 403, 'permission', 'role_forbidden');
    expectError(await owner.put(`/hub/api/users/${b.member}/email`, { email: 'x@test.example' }), 404, 'not_found', 'resource_not_found');
    const taken = await owner.put(`/hub/api/users/${a.admin}/email`, { email: 'MOVED@test.example' });
    expect(taken.json().error).toMatchObject({ code: 'user_exists', resource_id: a.member });
    expectError(await owner.put(`/hub/api/users/${a.admin}/email`, { email: 'nope' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await t.app.inject({ method: 'PUT', url: `/hub/api/users/${a.admin}/email`, headers: { origin: HUB_ORIGIN }, payload: { email: 'y@test.example' } }), 401, 'authentication', 'not_signed_in');
  });
});
