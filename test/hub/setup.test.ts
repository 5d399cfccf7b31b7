// First-run set-up (GET/POST /hub/api/setup): open only while the store has no account; a direct
// loopback peer needs nothing more, any other caller (a remote peer, or anything relayed by a
// proxy) needs the token serve printed; the owner's input checked by the account service's rule;
// the owner signed in; two set-ups at once create one account.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { SESSION_COOKIE } from '../../src/domain/hub.js';
import { issueSetupToken } from '../../src/services/setup/service.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { HUB_ORIGIN } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => t?.close());

const BODY = { account_name: 'Acme', name: 'Olivia Owner', email: 'Olivia@Acme.example', password: 'correct horse battery staple' };
const setUp = (payload: object, opts: Partial<InjectOptions> = {}) =>
  t.app.inject({ method: 'POST', url: '/hub/api/setup', payload, ...opts, headers: { origin: HUB_ORIGIN, ...(opts.headers ?? {}) } });
const REMOTE = { remoteAddress: '203.0.113.9' };
const accounts = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from accounts`))[0].n;

describe('first-run set-up', () => {
  it('is open on an empty store; from loopback it creates the account and its owner and signs the owner in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/hub/api/setup' })).json()).toEqual({ needed: true, token_required: false });
    const res = await setUp(BODY);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json();
    expect(s.email).toBe('olivia@acme.example');
    expect(s.accounts).toHaveLength(1);
    expect(s.account).toMatchObject({ name: 'Acme', role: 'owner' });
    const cookie = res.cookies.find((c) => c.name === SESSION_COOKIE)!;
    const me = await t.app.inject({ method: 'GET', url: '/hub/api/session', headers: { cookie: `${SESSION_COOKIE}=${cookie.value}` } });
    expect(me.json().account.account_id).toBe(s.account.account_id);
    const users = await t.db.query<{ email: string; name: string; role: string; password_hash: string }>(`select email, name, role, password_hash from users`);
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ email: 'olivia@acme.example', name: 'Olivia Owner', role: 'owner' });
    expect(users[0].password_hash).toMatch(/^scrypt\$/);
    const audit = await t.db.query<{ action: string; actor_kind: string; actor_label: string }>(`select action, actor_kind, actor_label from audit_log`);
    expect(audit).toEqual([{ action: 'account.created', actor_kind: 'operator', actor_label: 'first-run set-up by olivia@acme.example' }]);
    // The owner signs in with that password from now on.
    const signIn = await t.app.inject({ method: 'POST', url: '/hub/api/session', headers: { origin: HUB_ORIGIN }, payload: { email: BODY.email, password: BODY.password } });
    expect(signIn.statusCode).toBe(200);
  });

  it('gives the account the configured starting credit (US$5 by default in development; none when set to 0)', async () => {
    expect((await setUp(BODY)).statusCode).toBe(200);
    expect(await t.db.query(`select credit_micros::int8 as c from accounts`)).toEqual([{ c: 5_000_000 }]);
    const [entry] = await t.db.query<{ detail: { credit_micros: number } }>(`select detail from audit_log where action = 'account.created'`);
    expect(entry.detail.credit_micros).toBe(5_000_000);
    await t.close();
    t = await testApp({ startingCreditMicros: 0 });
    expect((await setUp(BODY)).statusCode).toBe(200);
    expect(await t.db.query(`select credit_micros::int8 as c from accounts`)).toEqual([{ c: 0 }]);
  });

  it('is over once an account exists (409 setup_done), for everyone', async () => {
    expect((await setUp(BODY)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/hub/api/setup' })).json().needed).toBe(false);
    expectError(await setUp({ ...BODY, email: 'mallory@evil.example' }), 409, 'conflict', 'setup_done');
    expectError(await setUp({ ...BODY, setup_token: 'whatever' }, REMOTE), 409, 'conflict', 'setup_done');
    expect(await accounts()).toBe(1);
  });

  it('from another address needs the printed token (403 setup_token_required without or with a wrong one)', async () => {
    const token = (await issueSetupToken(t.db))!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Only its hash is stored.
    const stored = await t.db.query<{ secret: Uint8Array }>(`select secret from server_secrets where purpose = 'hub_setup'`);
    expect(stored).toHaveLength(1);
    expect(Buffer.from(stored[0].secret).toString()).not.toContain(token);
    expect((await t.app.inject({ method: 'GET', url: '/hub/api/setup', ...REMOTE })).json()).toEqual({ needed: true, token_required: true });
    expectError(await setUp(BODY, REMOTE), 403, 'permission', 'setup_token_required', 'setup_token');
    expectError(await setUp({ ...BODY, setup_token: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') }, REMOTE), 403, 'permission', 'setup_token_required', 'setup_token');
    expect(await accounts()).toBe(0);
    const ok = await setUp({ ...BODY, setup_token: token }, REMOTE);
    expect(ok.statusCode, ok.body).toBe(200);
    // Used up with set-up: no token is kept.
    expect(await t.db.query(`select 1 from server_secrets where purpose = 'hub_setup'`)).toHaveLength(0);
    expect(await issueSetupToken(t.db)).toBeNull();
  });

  it('accepts the token of any process that printed one (several api processes on one store)', async () => {
    const first = (await issueSetupToken(t.db))!;
    const second = (await issueSetupToken(t.db))!;
    expect(first).not.toBe(second);
    expect((await setUp({ ...BODY, setup_token: first }, REMOTE)).statusCode).toBe(200);
  });

  it('treats a loopback peer behind any forwarding header as remote', async () => {
    const token = (await issueSetupToken(t.db))!;
    for (const h of [{ 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=127.0.0.1' }, { 'x-real-ip': '127.0.0.1' }]) {
      expect((await t.app.inject({ method: 'GET', url: '/hub/api/setup', headers: h })).json().token_required).toBe(true);
      expectError(await setUp(BODY, { headers: h }), 403, 'permission', 'setup_token_required', 'setup_token');
    }
    expect((await setUp({ ...BODY, setup_token: token }, { headers: { 'x-forwarded-for': '198.51.100.1' } })).statusCode).toBe(200);
  });

  it('checks the input with the account rule (422 invalid_field naming the field) and needs a same-origin Origin', async () => {
    expectError(await setUp({ ...BODY, password: 'short' }), 422, 'invalid_request', 'invalid_field', 'password');
    expectError(await setUp({ ...BODY, email: 'not an email' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await setUp({ ...BODY, account_name: '  ' }), 422, 'invalid_request', 'invalid_field', 'account_name');
    expectError(await setUp({ ...BODY, tier: 'enterprise' }), 422, 'invalid_request', 'unknown_field', 'tier');
    expectError(await setUp(BODY, { headers: { origin: 'https://evil.example' } }), 403, 'permission', 'csrf_failed');
    expect(await accounts()).toBe(0);
  });

  it('creates one account when two set-ups race; the other gets setup_done', async () => {
    const [a, b] = await Promise.all([setUp(BODY), setUp({ ...BODY, account_name: 'Other', email: 'other@acme.example' })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expectError(a.statusCode === 409 ? a : b, 409, 'conflict', 'setup_done');
    expect(await accounts()).toBe(1);
    expect(await t.db.query(`select 1 from users`)).toHaveLength(1);
  });
});
