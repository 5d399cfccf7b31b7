// Sign-in and the session (POST/GET/DELETE /hub/api/session, PUT /session/account): passwords
// checked, one account picked by itself and several offered, a new session id at every sign-in
// (the one presented before is dead), sign-out, idle and absolute expiry, the Secure cookie
// behind an https public URL, and the sign-in throttle over HTTP (shared by processes on one
// store): failures from elsewhere lock no one out, a guesser at one address is stopped, and
// distributed guessing is held, not refused (its rules per counter: sign-in-throttle.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { configWith, loadConfig } from '../../src/config.js';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE, SESSION_IDLE_MS } from '../../src/domain/hub.js';
import { deleteExpiredSessions } from '../../src/hub/sessions/store.js';
import { createApp, type StartOptions } from '../../src/server.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { HUB_ORIGIN, insideOneMinute } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

const PW = 'correct horse battery staple';
let t: TestApp;
let ids: { solo: string; a1: string; a2: string; sam: string };

const user = (email: string, role = 'owner', password: string | null = PW) => ({ ref: email.split('@')[0], email, role, password, name: '' });
const acct = (ref: string, users: unknown[]) => ({ ref, name: `Account ${ref}`, users, keys: [] });

function cookieOf(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE) as { value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string } | undefined;
}

const signIn = (email: string, password: string, headers: Record<string, string> = {}, app = t.app) =>
  app.inject({ method: 'POST', url: '/hub/api/session', headers: { origin: HUB_ORIGIN, ...headers }, payload: { email, password } });
const who = (token: string) => t.app.inject({ method: 'GET', url: '/hub/api/session', headers: { cookie: `${SESSION_COOKIE}=${token}` } });

beforeAll(async () => {
  t = await testApp();
  const s = await seed(
    t.db,
    acct('solo', [
      user('sam@solo.example'),
      user('nopw@solo.example', 'member', null),
      ...['fix', 'out', 'idle', 'abs'].map((n) => user(`${n}@solo.example`, 'member')),
    ]),
    acct('one', [user('multi@both.example', 'owner')]),
    acct('two', [user('multi@both.example', 'member')]),
  );
  ids = { solo: s.solo.id, a1: s.one.id, a2: s.two.id, sam: s.solo.users.sam };
});
afterAll(() => t?.close());

describe('sign-in', () => {
  it('signs in with the right password, one account picked by itself, an HttpOnly SameSite=Lax cookie', async () => {
    const res = await signIn('Sam@Solo.example ', PW);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.email).toBe('sam@solo.example');
    expect(body.accounts).toEqual([{ account_id: ids.solo, user_id: ids.sam, name: 'Account solo', role: 'owner', state: 'active', subscription: 'active' }]);
    expect(body.closed_account).toBeNull();
    expect(body.account).toEqual(body.accounts[0]);
    expect(body.csrf_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const c = cookieOf(res)!;
    expect(c.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(c).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(c.secure).toBeFalsy();
    // The token is not stored, only its hash.
    const rows = await t.db.query<{ n: number }>(`select count(*)::int as n from hub_sessions where encode(token_hash, 'escape') = $1`, [c.value]);
    expect(rows[0].n).toBe(0);
    const me = await who(c.value);
    expect(me.statusCode).toBe(200);
    expect(me.json().account.account_id).toBe(ids.solo);
  });

  it('refuses a wrong password and an unknown email alike (401 sign_in_failed), and a user without a password', async () => {
    for (const [email, pw] of [['sam@solo.example', 'wrong password!'], ['nobody@solo.example', PW], ['nopw@solo.example', PW]]) {
      const res = await signIn(email, pw);
      expectError(res, 401, 'authentication', 'sign_in_failed');
      expect(cookieOf(res)).toBeUndefined();
    }
  });

  it('a user of several accounts signs in without one picked, then picks one', async () => {
    const res = await signIn('multi@both.example', PW);
    expect(res.statusCode).toBe(200);
    expect(res.json().account).toBeNull();
    expect(res.json().accounts.map((a: { account_id: string; role: string }) => [a.account_id, a.role])).toEqual([
      [ids.a1, 'owner'],
      [ids.a2, 'member'],
    ]);
    const token = cookieOf(res)!.value;
    const csrf = res.json().csrf_token;
    const h = { cookie: `${SESSION_COOKIE}=${token}`, origin: HUB_ORIGIN, 'x-csrf-token': csrf };
    const pick = await t.app.inject({ method: 'PUT', url: '/hub/api/session/account', headers: h, payload: { account_id: ids.a2 } });
    expect(pick.statusCode, pick.body).toBe(200);
    expect(pick.json().account).toMatchObject({ account_id: ids.a2, role: 'member' });
    expect((await who(token)).json().account.account_id).toBe(ids.a2);
    // An account the sign-in was not granted is not there.
    const foreign = await t.app.inject({ method: 'PUT', url: '/hub/api/session/account', headers: h, payload: { account_id: ids.solo } });
    expectError(foreign, 404, 'not_found', 'resource_not_found');
  });
});

describe('the session', () => {
  it('gets a new id at sign-in; the one presented before is ended (no fixation)', async () => {
    const first = cookieOf(await signIn('fix@solo.example', PW))!.value;
    const again = await signIn('fix@solo.example', PW, { cookie: `${SESSION_COOKIE}=${first}` });
    const second = cookieOf(again)!.value;
    expect(second).not.toBe(first);
    expectError(await who(first), 401, 'authentication', 'not_signed_in');
    expect((await who(second)).statusCode).toBe(200);
  });

  it('sign-out ends the session and clears the cookie', async () => {
    const res = await signIn('out@solo.example', PW);
    const token = cookieOf(res)!.value;
    const h = { cookie: `${SESSION_COOKIE}=${token}`, origin: HUB_ORIGIN, 'x-csrf-token': res.json().csrf_token };
    const out = await t.app.inject({ method: 'DELETE', url: '/hub/api/session', headers: h });
    expect(out.statusCode).toBe(204);
    expect(cookieOf(out)?.value ?? '').toBe('');
    expectError(await who(token), 401, 'authentication', 'not_signed_in');
    expectError(await t.app.inject({ method: 'DELETE', url: '/hub/api/session', headers: h }), 401, 'authentication', 'not_signed_in');
  });

  it('expires after 12 hours idle', async () => {
    const token = cookieOf(await signIn('idle@solo.example', PW))!.value;
    expect((await who(token)).statusCode).toBe(200);
    await t.db.query(`update hub_sessions set last_seen_at = now() - interval '11 hours 59 minutes' where email = 'idle@solo.example'`);
    expect((await who(token)).statusCode).toBe(200); // and the request moved the idle clock on
    await t.db.query(`update hub_sessions set last_seen_at = now() - interval '12 hours 1 minute' where email = 'idle@solo.example'`);
    expectError(await who(token), 401, 'authentication', 'not_signed_in');
  });

  it('expires 7 days after sign-in however active', async () => {
    const token = cookieOf(await signIn('abs@solo.example', PW))!.value;
    await t.db.query(`update hub_sessions set created_at = now() - interval '6 days 23 hours', last_seen_at = now() where email = 'abs@solo.example'`);
    expect((await who(token)).statusCode).toBe(200);
    await t.db.query(`update hub_sessions set created_at = now() - interval '7 days 1 minute', last_seen_at = now() where email = 'abs@solo.example'`);
    expectError(await who(token), 401, 'authentication', 'not_signed_in');
    // The reaper deletes expired rows (idle and absolute) and leaves live ones.
    const live = cookieOf(await signIn('abs@solo.example', PW, { cookie: `${SESSION_COOKIE}=${token}` }))!.value;
    await t.db.query(`update hub_sessions set created_at = now() - interval '8 days' where email = 'idle@solo.example'`);
    await t.db.query(
      `insert into hub_sessions (token_hash, email, user_ids, csrf_token, created_at, last_seen_at) values ('\\x00', 'x@solo.example', '{}', 'c', now() - interval '8 days', now())`,
    );
    expect(await deleteExpiredSessions(t.db, SESSION_IDLE_MS, SESSION_ABSOLUTE_MS)).toBeGreaterThanOrEqual(1);
    const left = await t.db.query<{ email: string }>(`select email from hub_sessions where email in ('abs@solo.example', 'x@solo.example', 'idle@solo.example')`);
    expect(left).toEqual([{ email: 'abs@solo.example' }]);
    expect((await who(live)).statusCode).toBe(200);
  });

  it('is Secure when the public URL is https', async () => {
    const base = loadConfig({});
    const app = await createApp(configWith({ rateLimitStore: 'memory', delivery: { ...base.delivery, publicUrl: 'https://hub.example', publicUrlSet: true } }), t.db);
    try {
      const res = await signIn('sam@solo.example', PW, { origin: 'https://hub.example' }, app);
      expect(res.statusCode, res.body).toBe(200);
      expect(cookieOf(res)).toMatchObject({ secure: true, httpOnly: true });
    } finally {
      await app.close();
    }
  });
});

/** An app of its own over the same store: its memory counter starts at zero. */
async function withApp(fn: (app: TestApp['app']) => Promise<void>, cfg = configWith({ rateLimitStore: 'memory' }), opts: StartOptions = {}): Promise<void> {
  // Each app counts on its own clock inside one minute (tests that count failures in a minute).
  const app = await createApp(cfg, t.db, { counterClock: insideOneMinute(), ...opts });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

const from = (remoteAddress: string) => ({ remoteAddress });
const signInAt = (app: TestApp['app'], address: string, email: string, password: string) =>
  app.inject({ method: 'POST', url: '/hub/api/session', ...from(address), headers: { origin: HUB_ORIGIN }, payload: { email, password } });

describe('the sign-in throttle', () => {
  it('does not let wrong passwords from elsewhere lock the real user out (their right password signs in)', () => withApp(async (app) => {
    for (let i = 0; i < 8; i++) expect([401, 429]).toContain((await signInAt(app, '203.0.113.7', 'multi@both.example', 'wrong password!')).statusCode);
    const res = await signInAt(app, '198.51.100.2', 'Multi@Both.example', PW);
    expect(res.statusCode, res.body).toBe(200);
    expect(cookieOf(res)).toBeDefined();
  }));

  it('stops a guesser at one address: past five wrong passwords even the right one is refused there (429, Retry-After)', () => withApp(async (app) => {
    for (let i = 0; i < 5; i++) expectError(await signInAt(app, '192.0.2.10', 'multi@both.example', 'wrong password!'), 401, 'authentication', 'sign_in_failed');
    const res = await signInAt(app, '192.0.2.10', 'multi@both.example', PW);
    const e = expectError(res, 429, 'rate_limit', 'too_many_sign_ins');
    expect(e.message).toMatch(/Too many wrong passwords for this email from this address.*Wait \d+ seconds/);
    const after = Number(res.headers['retry-after']);
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
    expect(cookieOf(res)).toBeUndefined();
    // Another email from the same address is not held back by it, nor the same email elsewhere.
    expect((await signInAt(app, '192.0.2.10', 'sam@solo.example', PW)).statusCode).toBe(200);
    expect((await signInAt(app, '198.51.100.3', 'multi@both.example', PW)).statusCode).toBe(200);
  }));

  it('holds (never refuses) attempts at an email failing from many addresses, the right password included', async () => {
    const held: number[] = [];
    await withApp(
      async (app) => {
        // Five addresses, four wrong passwords each: under every per-address limit, 20 for the email.
        for (let a = 1; a <= 5; a++) {
          for (let i = 0; i < 4; i++) expectError(await signInAt(app, `198.18.0.${a}`, 'sam@solo.example', 'wrong password!'), 401, 'authentication', 'sign_in_failed');
        }
        expect(held).toEqual([]);
        expectError(await signInAt(app, '198.18.0.6', 'sam@solo.example', 'wrong password!'), 401, 'authentication', 'sign_in_failed');
        expect(held).toEqual([1_000]);
        const res = await signInAt(app, '198.51.100.4', 'sam@solo.example', PW);
        expect(res.statusCode, res.body).toBe(200);
        expect(held).toEqual([1_000, 1_000]);
      },
      configWith({ rateLimitStore: 'memory' }),
      { pause: async (ms) => void held.push(ms) },
    );
  });

  it('refuses the 21st attempt a minute from one address, whatever the emails', () => withApp(async (app) => {
    {
      let last: LightMyRequestResponse | null = null;
      for (let i = 0; i < 21; i++) last = await signIn(`guess${i}@solo.example`, 'wrong password!', {}, app);
      const e = expectError(last!, 429, 'rate_limit', 'too_many_sign_ins');
      expect(e.message).toMatch(/from this address/);
      expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    }
  }));

  it('counts across processes that share the store (the PostgreSQL rate counter)', async () => {
    const cfg = configWith({ rateLimitStore: 'postgres' });
    const counterClock = insideOneMinute();
    const [p1, p2] = [await createApp(cfg, t.db, { counterClock }), await createApp(cfg, t.db, { counterClock })];
    try {
      const email = 'shared@solo.example';
      for (let i = 0; i < 5; i++) expect((await signIn(email, 'wrong password!', {}, i % 2 ? p1 : p2)).statusCode).toBe(401);
      expectError(await signIn(email, 'wrong password!', {}, p1), 429, 'rate_limit', 'too_many_sign_ins');
      expectError(await signIn(email, 'wrong password!', {}, p2), 429, 'rate_limit', 'too_many_sign_ins');
    } finally {
      await p1.close();
      await p2.close();
    }
  });
});
