// /hub/api/users: list, invite, change role, remove (owners and admins only), by intent: happy
// path, errors, security.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { makeAccount, type TestAccount } from '../cli/support.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const as = (a: TestAccount, role: 'owner' | 'admin' | 'member'): Promise<HubClient> =>
  hubClient(t, { accountId: a.id, userId: a[role], email: `${role}@test.example` });

const lastAudit = async (accountId: string) =>
  (await t.db.query<{ action: string; actor_id: string; object_id: string; detail: Record<string, unknown> }>(
    `select action, actor_id, object_id, detail from audit_log where account_id = $1 order by at desc, id desc limit 1`,
    [accountId],
  ))[0];

describe('happy path', () => {
  it('lists the account users, oldest first', async () => {
    const a = await makeAccount(t.db);
    const res = await (await as(a, 'admin')).get('/hub/api/users');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((u: { id: string; role: string }) => [u.id, u.role])).toEqual([
      [a.owner, 'owner'],
      [a.admin, 'admin'],
      [a.member, 'member'],
    ]);
    expect(res.json().data[0]).toMatchObject({ email: 'owner@test.example', has_password: false });
  });

  it('invites a user: 201 with the one-time link, audited as the inviting user', async () => {
    const a = await makeAccount(t.db);
    const res = await (await as(a, 'owner')).post('/hub/api/users', { email: 'new@test.example', name: 'New One', role: 'member' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ user: { email: 'new@test.example', name: 'New One', role: 'member', has_password: false }, emailed: false });
    expect(body.set_password_url).toMatch(/\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(await lastAudit(a.id)).toMatchObject({ action: 'user.invited', actor_id: a.owner, object_id: body.user.id });
    // The dev transport sends nothing, so nothing was queued.
    expect(await t.db.query(`select 1 from outbox where account_id = $1`, [a.id])).toHaveLength(0);
  });

  it('with an SMTP transport, queues the link as an email to the user in the same transaction; the link is on SWITCHBOARD_PUBLIC_URL', async () => {
    const smtp = await testApp({
      delivery: { ...t.config.delivery, emailTransport: 'smtp', smtpUrl: 'smtp://127.0.0.1:2525', publicUrl: 'https://hub.example.test', publicUrlSet: true },
    });
    try {
      const a = await makeAccount(smtp.db);
      const c = await hubClient(smtp, { accountId: a.id, userId: a.admin, email: 'admin@test.example' });
      const res = await c.post('/hub/api/users', { email: 'mailed@test.example', role: 'admin' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().emailed).toBe(true);
      expect(res.json().set_password_url).toMatch(/^https:\/\/hub\.example\.test\/set-password\?token=[A-Za-z0-9_-]{43}$/);
      const rows = await smtp.db.query<{ channel: string; to_address: string; body: string; status: string }>(
        `select channel, to_address, body, status from outbox where account_id = $1`,
        [a.id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ channel: 'team', to_address: 'mailed@test.example', status: 'queued' });
      expect(rows[0].body).toContain(res.json().set_password_url);
    } finally {
      await smtp.close();
    }
  });

  it('changes a role and removes a user; the removed user is signed out', async () => {
    const a = await makeAccount(t.db);
    const admin = await as(a, 'admin');
    const member = await as(a, 'member');
    const res = await admin.patch(`/hub/api/users/${a.member}`, { role: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: a.member, role: 'admin' });
    expect(await lastAudit(a.id)).toMatchObject({ action: 'user.role_changed', detail: { from: 'member', to: 'admin' } });
    const del = await admin.delete(`/hub/api/users/${a.member}`);
    expect(del.statusCode, del.body).toBe(204);
    expect(await lastAudit(a.id)).toMatchObject({ action: 'user.removed', object_id: a.member });
    expect((await member.get('/hub/api/session')).statusCode).toBe(401);
    expect((await admin.get('/hub/api/users')).json().data).toHaveLength(2);
  });
});

describe('errors', () => {
  it('409 user_exists with the existing user as resource_id (email in any case)', async () => {
    const a = await makeAccount(t.db);
    const res = await (await as(a, 'owner')).post('/hub/api/users', { email: 'Member@Test.example', role: 'admin' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ type: 'conflict', code: 'user_exists', resource_id: a.member, param: 'email' });
  });

  it.each([
    [{ email: 'not-an-email', role: 'member' }, 422, 'invalid_field', 'email'],
    [{ email: 'x@test.example', role: 'boss' }, 422, 'invalid_field', 'role'],
    [{ email: 'x@test.example' }, 400, 'missing_field', 'role'],
    [{ email: 'x@test.example', role: 'member', password: 'x' }, 422, 'unknown_field', 'password'],
  ])('refuses the invite body %j (%i %s)', async (body, status, code, param) => {
    const a = await makeAccount(t.db);
    const res = await (await as(a, 'owner')).post('/hub/api/users', body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toMatchObject({ code, param });
  });

  it('409 last_owner on demoting or removing the only owner', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    for (const res of [await owner.patch(`/hub/api/users/${a.owner}`, { role: 'admin' }), await owner.delete(`/hub/api/users/${a.owner}`)]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'last_owner', resource_id: a.owner });
    }
  });

  it('two concurrent demotions of the only two owners: one passes, one is last_owner', async () => {
    const a = await makeAccount(t.db);
    expect((await (await as(a, 'owner')).patch(`/hub/api/users/${a.member}`, { role: 'owner' })).statusCode).toBe(200);
    // An admin (whose own role does not change) demotes both owners at once.
    const admin = await as(a, 'admin');
    const results = await Promise.all([
      admin.patch(`/hub/api/users/${a.owner}`, { role: 'member' }),
      admin.patch(`/hub/api/users/${a.member}`, { role: 'member' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const owners = await t.db.query(`select 1 from users where account_id = $1 and role = 'owner'`, [a.id]);
    expect(owners).toHaveLength(1);
  });

  it('409 user_has_keys when the user created a key still in use', async () => {
    const a = await makeAccount(t.db);
    const key = uuidv7();
    await t.db.query(
      `insert into api_keys (id, account_id, hash, prefix, name, created_by) values ($1, $2, $3, 'svc_live_abcd', 'k', $4)`,
      [key, a.id, Buffer.from(key.replace(/-/g, ''), 'hex'), a.admin],
    );
    const res = await (await as(a, 'owner')).delete(`/hub/api/users/${a.admin}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'user_has_keys', resource_id: a.admin });
    expect(res.json().error.message).toMatch(/revoke or roll them first/);
  });

  it('400 invalid_id on a malformed id; 404 on an unknown one', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    expect((await owner.patch('/hub/api/users/nope', { role: 'admin' })).statusCode).toBe(400);
    const res = await owner.delete(`/hub/api/users/${uuidv7()}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('resource_not_found');
  });
});

describe('security', () => {
  it('401 not_signed_in without a session', async () => {
    for (const [method, url] of [['GET', '/hub/api/users'], ['POST', '/hub/api/users'], ['PATCH', `/hub/api/users/${uuidv7()}`], ['DELETE', `/hub/api/users/${uuidv7()}`]] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json().error.code).toBe('not_signed_in');
    }
  });

  it('403 role_forbidden for a member on every users route', async () => {
    const a = await makeAccount(t.db);
    const member = await as(a, 'member');
    for (const res of [
      await member.get('/hub/api/users'),
      await member.post('/hub/api/users', { email: 'x@test.example', role: 'member' }),
      await member.patch(`/hub/api/users/${a.owner}`, { role: 'member' }),
      await member.delete(`/hub/api/users/${a.admin}`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('role_forbidden');
    }
    expect(await t.db.query(`select 1 from users where account_id = $1`, [a.id])).toHaveLength(3);
  });

  it("404 for another account's user, which stays as it was", async () => {
    const a = await makeAccount(t.db);
    const b = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    for (const res of [await owner.patch(`/hub/api/users/${b.member}`, { role: 'owner' }), await owner.delete(`/hub/api/users/${b.member}`)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('resource_not_found');
    }
    expect((await t.db.query<{ role: string }>(`select role from users where id = $1`, [b.member]))[0].role).toBe('member');
    expect((await owner.get('/hub/api/users')).json().data.map((u: { id: string }) => u.id)).not.toContain(b.member);
  });

  it('403 csrf_failed without the CSRF token or from a foreign Origin', async () => {
    const a = await makeAccount(t.db);
    const owner = await as(a, 'owner');
    const noToken = await owner.request({ method: 'POST', url: '/hub/api/users', payload: { email: 'x@test.example', role: 'member' }, headers: { 'x-csrf-token': '' } });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error.code).toBe('csrf_failed');
    const foreign = await owner.request({ method: 'DELETE', url: `/hub/api/users/${a.member}`, headers: { origin: 'https://evil.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('csrf_failed');
    expect(await t.db.query(`select 1 from users where account_id = $1`, [a.id])).toHaveLength(3);
  });
});
