// Sign-in and the session (POST/GET/DELETE /hub/api/session, PUT /session/account): passwords
// checked, one account picked by itself and several offered, a new session id at every sign-in
// (the one presented before is dead), sign-out, idle and absolute expiry, the Secure cookie
// behind an https public URL, and the sign-in throttle (shared by processes on one store).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { configWith, loadConfig } from '../../src/config.js';
import { SESSION_COOKIE } from '../../src/domain/hub.js';
import { createApp } from '../../src/server.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { HUB_ORIGIN } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

const PW = 'correct horse battery staple';
let t: TestApp;
let ids: { solo: string; a1: string; a2: string };

const user = (email: string, role = 'owner', password: string | null = PW) => ({ ref: email.split('@')[0], email, role, password, name: '' });
const acct = (ref: string, users: unknown[]) => ({ ref, name: `Account ${ref}`, users, keys: [] });

function cookieOf(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE) as { value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string } | undefined;
}

const signIn = (email: string, password: string, headers: Record<string, string> = {}, app = t.app) =>
  app.inject({ method: 'POST', url: '/hub/api/session', headers: { origin: HUB_ORIGIN, ...headers }, payload: { email, password } });
const who = (token: string) => t.app.inject({ method: 'GET', url: '/hub/api/session', headers: { cookie: `${SESSION_COOKIE}=${token}` } });

/** The throttle counts in clock-aligned minute windows: a burst must not straddle a boundary. */
async function awayFromMinuteEdge(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 200));
}

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
  ids = { solo: s.solo.id, a1: s.one.id, a2: s.two.id };
});
afterAll(() => t?.close());

describe('sign-in', () => {
  it('signs in with the right password, one account picked by itself, an HttpOnly SameSite=Lax cookie', async () => {
    const res = await signIn('Sam@Solo.example ', PW);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.email).toBe('sam@solo.example');
    expect(body.accounts).toEqual([{ account_id: ids.solo, name: 'Account solo', role: 'owner' }]);
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
async function withApp(fn: (app: TestApp['app']) => Promise<void>, cfg = configWith({ rateLimitStore: 'memory' })): Promise<void> {
  const app = await createApp(cfg, t.db);
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

describe('the sign-in throttle', () => {
  it('refuses a sixth attempt a minute for one email, even with the right password (429, Retry-After)', () => withApp(async (app) => {
    await awayFromMinuteEdge();
    for (let i = 0; i < 5; i++) expect((await signIn('multi@both.example', i < 4 ? 'wrong password!' : PW, {}, app)).statusCode).not.toBe(429);
    const res = await signIn('Multi@Both.example', PW, {}, app);
    const e = expectError(res, 429, 'rate_limit', 'too_many_sign_ins');
    expect(e.message).toMatch(/Too many sign-in attempts for this email.*Wait \d+ seconds/);
    const after = Number(res.headers['retry-after']);
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(60);
    expect(cookieOf(res)).toBeUndefined();
    // Another email from the same address is not held back by it.
    expect((await signIn('sam@solo.example', PW, {}, app)).statusCode).toBe(200);
  }));

  it('refuses the 21st attempt a minute from one address, whatever the emails', () => withApp(async (app) => {
    await awayFromMinuteEdge();
    {
      let last: LightMyRequestResponse | null = null;
      for (let i = 0; i < 21; i++) last = await signIn(`guess${i}@solo.example`, 'wrong password!', {}, app);
      const e = expectError(last!, 429, 'rate_limit', 'too_many_sign_ins');
      expect(e.message).toMatch(/from this address/);
      expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    }
  }));

  it('counts across processes that share the store (the PostgreSQL rate counter)', async () => {
    await awayFromMinuteEdge();
    const cfg = configWith({ rateLimitStore: 'postgres' });
    const [p1, p2] = [await createApp(cfg, t.db), await createApp(cfg, t.db)];
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
