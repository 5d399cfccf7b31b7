// /hub/api/keys: list with creator and this month's spend, scopes with descriptions, create (the
// value once; 409 key_limit_reached past 10), rename and re-cap, revoke (idempotent), roll with a
// grace (409 key_not_active for a key that is not active); every change audited. Security: no
// session, a member (403 role_forbidden, list included), another account's ids (404), CSRF.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { SCOPES } from '../../src/lib/scopes.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { bearer, expectError, seed, UUID_RE } from '../http/fixtures.js';
import { expectCsrfRefused } from './audience-support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let owner: HubClient;
let admin: HubClient;
let member: HubClient;

const users = (ref: string) => [
  { ref: 'owner', email: `owner@${ref}.example`, name: 'Olive Owner', role: 'owner' },
  { ref: 'admin', email: `admin@${ref}.example`, role: 'admin' },
  { ref: 'member', email: `member@${ref}.example`, role: 'member' },
];

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    { ref: 'acme', name: 'Acme', users: users('acme'), keys: [{ ref: 'main', name: 'Main', scopes: ['workflows:read'], monthly_spend_cap_micros: 5_000_000 }] },
    { ref: 'other', name: 'Other', users: users('other'), keys: [{ ref: 'theirs', name: 'Theirs', scopes: ['workflows:read'] }] },
  );
  const a = s.acme;
  owner = await hubClient(t, { accountId: a.id, userId: a.users.owner, email: 'owner@acme.example' });
  admin = await hubClient(t, { accountId: a.id, userId: a.users.admin, email: 'admin@acme.example' });
  member = await hubClient(t, { accountId: a.id, userId: a.users.member, email: 'member@acme.example' });
  await t.db.query(`insert into api_key_spend (account_id, key_id, month, spent_micros) values ($1, $2, date_trunc('month', now() at time zone 'utc')::date, 1234)`, [
    a.id,
    a.key_ids.main,
  ]);
});
afterAll(() => t?.close());

const workflows = (key: string) => t.app.inject({ method: 'GET', url: '/v1/workflows', headers: bearer(key) });
const audit = (objectId: string) =>
  t.db.query<{ action: string; actor_kind: string; actor_id: string; detail: Record<string, unknown> }>(
    'select action, actor_kind, actor_id, detail from audit_log where object_id = $1 order by id',
    [objectId],
  );
const create = async (c: HubClient, body: Record<string, unknown>) => {
  const res = await c.post('/hub/api/keys', { scopes: [], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ key: { id: string; prefix: string; state: string }; value: string }>();
};

describe('GET /hub/api/keys and /hub/api/keys/scopes', () => {
  it("lists the account's keys with creator, cap, this month's spend and state, never a value", async () => {
    const res = await owner.get('/hub/api/keys');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.max_active).toBe(10);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      id: s.acme.key_ids.main,
      name: 'Main',
      scopes: ['workflows:read'],
      state: 'active',
      created_by: { id: s.acme.users.owner, name: 'Olive Owner', email: 'owner@acme.example' },
      monthly_spend_cap_micros: 5_000_000,
      spent_this_month_micros: 1234,
      revoked_at: null,
      replaced_by: null,
      expires_at: null,
    });
    expect(s.acme.keys.main.startsWith(body.data[0].prefix)).toBe(true);
    expect(res.body).not.toContain(s.acme.keys.main);
    expect(res.body).not.toContain('Theirs');
  });

  it('serves every scope with its description', async () => {
    const res = await admin.get('/hub/api/keys/scopes');
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { scope: string; description: string }[];
    expect(data.map((d) => d.scope)).toEqual([...SCOPES]);
    expect(data.find((d) => d.scope === 'workflows:run')?.description).toBe('Start workflow runs (spends AI credit).');
  });
});

describe('POST /hub/api/keys', () => {
  it('creates a key whose value comes once and works on /v1; audited with the user', async () => {
    const c = await create(admin, { name: '  CRM sync ', scopes: ['workflows:read', 'usage:read'], expires_at: '2099-01-01T00:00:00Z', monthly_spend_cap_micros: 700 });
    expect(c.key).toMatchObject({ name: 'CRM sync', state: 'active', expires_at: '2099-01-01T00:00:00.000Z', monthly_spend_cap_micros: 700 });
    expect(c.key.id).toMatch(UUID_RE);
    expect(c.value.startsWith(c.key.prefix)).toBe(true);
    expect((await workflows(c.value)).statusCode).toBe(200);
    const entries = await audit(c.key.id);
    expect(entries).toEqual([expect.objectContaining({ action: 'key.created', actor_kind: 'user', actor_id: s.acme.users.admin })]);
    expect(JSON.stringify(entries)).not.toContain(c.value);
  });

  it('refuses bad bodies', async () => {
    expectError(await owner.post('/hub/api/keys', { name: 'x', scopes: ['workflows:write'] }), 422, 'invalid_request', 'invalid_field', 'scopes');
    expectError(await owner.post('/hub/api/keys', { name: '', scopes: [] }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await owner.post('/hub/api/keys', { name: 'x', scopes: [], colour: 'red' }), 422, 'invalid_request', 'unknown_field', 'colour');
    expectError(await owner.post('/hub/api/keys', { name: 'x', scopes: [], monthly_spend_cap_micros: 0 }), 422, 'invalid_request', 'invalid_field', 'monthly_spend_cap_micros');
    expectError(await owner.post('/hub/api/keys', { name: 'x', scopes: [], expires_at: '2001-01-01T00:00:00Z' }), 422, 'invalid_request', 'invalid_field', 'expires_at');
  });

  it('refuses the 11th active key with 409 key_limit_reached', async () => {
    const active = (await owner.get('/hub/api/keys')).json().data.filter((k: { state: string }) => k.state === 'active').length;
    for (let i = active; i < 10; i++) await create(owner, { name: `fill ${i}` });
    expectError(await owner.post('/hub/api/keys', { name: 'eleventh', scopes: [] }), 409, 'conflict', 'key_limit_reached');
    // Free the slots again for the tests after this one.
    for (const k of (await owner.get('/hub/api/keys')).json().data) {
      if (k.name.startsWith('fill ')) expect((await owner.post(`/hub/api/keys/${k.id}/revoke`)).statusCode).toBe(200);
    }
  });
});

describe('PATCH /hub/api/keys/{id}', () => {
  it('renames, lowers and removes the cap; audited with old and new values', async () => {
    const c = await create(owner, { name: 'Edit', monthly_spend_cap_micros: 9000 });
    const res = await owner.patch(`/hub/api/keys/${c.key.id}`, { name: 'Edited', monthly_spend_cap_micros: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Edited', monthly_spend_cap_micros: 10 });
    expect((await owner.patch(`/hub/api/keys/${c.key.id}`, { monthly_spend_cap_micros: null })).json().monthly_spend_cap_micros).toBeNull();
    const entries = await audit(c.key.id);
    expect(entries.map((e) => e.detail)).toEqual([
      expect.anything(),
      { name: { from: 'Edit', to: 'Edited' }, monthly_spend_cap_micros: { from: 9000, to: 10 } },
      { monthly_spend_cap_micros: { from: 10, to: null } },
    ]);
  });

  it('refuses an empty body, bad values and unknown ids', async () => {
    const id = s.acme.key_ids.main;
    expect((await owner.patch(`/hub/api/keys/${id}`, {})).statusCode).toBe(422);
    expectError(await owner.patch(`/hub/api/keys/${id}`, { monthly_spend_cap_micros: -5 }), 422, 'invalid_request', 'invalid_field', 'monthly_spend_cap_micros');
    expectError(await owner.patch(`/hub/api/keys/${id}`, { name: 'a\nb' }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await owner.patch('/hub/api/keys/0190a8a0-0000-7000-8000-000000000000', { name: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await owner.patch('/hub/api/keys/nope', { name: 'x' }), 400, 'invalid_request', 'invalid_id', 'id');
  });
});

describe('POST /hub/api/keys/{id}/revoke', () => {
  it('revokes: the key fails from its next request; revoking again changes nothing', async () => {
    const c = await create(owner, { name: 'Revoke me', scopes: ['workflows:read'] });
    expect((await workflows(c.value)).statusCode).toBe(200);
    const res = await owner.post(`/hub/api/keys/${c.key.id}/revoke`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ state: 'revoked' });
    expectError(await workflows(c.value), 401, 'authentication', 'api_key_revoked');
    const again = await owner.post(`/hub/api/keys/${c.key.id}/revoke`);
    expect(again.json().revoked_at).toBe(res.json().revoked_at);
    expect((await audit(c.key.id)).map((e) => e.action)).toEqual(['key.created', 'key.revoked']);
  });
});

describe('POST /hub/api/keys/{id}/roll', () => {
  it('gives a new key once with the same scopes, cap and expiry; both work during the grace', async () => {
    const c = await create(owner, { name: 'Roll me', scopes: ['workflows:read'], monthly_spend_cap_micros: 42, expires_at: '2098-05-05T00:00:00Z' });
    const res = await admin.post(`/hub/api/keys/${c.key.id}/roll`, { grace: '1h' });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.key).toMatchObject({ name: 'Roll me', scopes: ['workflows:read'], monthly_spend_cap_micros: 42, expires_at: '2098-05-05T00:00:00.000Z', state: 'active' });
    expect(r.key.created_by.id).toBe(s.acme.users.admin);
    expect(r.old).toMatchObject({ id: c.key.id, state: 'rolled', replaced_by: r.key.id });
    expect(Date.parse(r.old.expires_at) - Date.now()).toBeGreaterThan(3_500_000);
    expect(r.value.startsWith(r.key.prefix)).toBe(true);
    expect((await workflows(c.value)).statusCode).toBe(200);
    expect((await workflows(r.value)).statusCode).toBe(200);
    const entries = await audit(c.key.id);
    expect(entries.at(-1)).toMatchObject({ action: 'key.rolled', actor_id: s.acme.users.admin, detail: { grace: '1h', replaced_by: r.key.id } });
  });

  it('refuses a rolled, revoked or expired key with 409 key_not_active, and a bad grace', async () => {
    const c = await create(owner, { name: 'Once' });
    expect((await owner.post(`/hub/api/keys/${c.key.id}/roll`, { grace: 'none' })).statusCode).toBe(200);
    expectError(await owner.post(`/hub/api/keys/${c.key.id}/roll`, { grace: '7d' }), 409, 'conflict', 'key_not_active');
    const gone = await create(owner, { name: 'Gone' });
    await owner.post(`/hub/api/keys/${gone.key.id}/revoke`);
    expectError(await owner.post(`/hub/api/keys/${gone.key.id}/roll`, { grace: '7d' }), 409, 'conflict', 'key_not_active');
    expectError(await owner.post(`/hub/api/keys/${s.acme.key_ids.main}/roll`, { grace: '2h' }), 422, 'invalid_request', 'invalid_field', 'grace');
    expectError(await owner.post(`/hub/api/keys/${s.acme.key_ids.main}/roll`, {}), 400, 'invalid_request', 'missing_field', 'grace');
  });
});

describe('security', () => {
  const theirs = () => s.other.key_ids.theirs;

  it('needs a session', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/keys' }), 401, 'authentication', 'not_signed_in');
    expectError(await t.app.inject({ method: 'POST', url: `/hub/api/keys/${theirs()}/revoke` }), 401, 'authentication', 'not_signed_in');
  });

  it('refuses a member every keys route with 403 role_forbidden', async () => {
    const id = s.acme.key_ids.main;
    for (const res of [
      await member.get('/hub/api/keys'),
      await member.get('/hub/api/keys/scopes'),
      await member.post('/hub/api/keys', { name: 'mine', scopes: [] }),
      await member.patch(`/hub/api/keys/${id}`, { name: 'mine' }),
      await member.post(`/hub/api/keys/${id}/revoke`),
      await member.post(`/hub/api/keys/${id}/roll`, { grace: 'none' }),
    ]) {
      expectError(res, 403, 'permission', 'role_forbidden');
    }
    expect((await workflows(s.acme.keys.main)).statusCode).toBe(200);
  });

  it("answers 404 for another account's key on every id route, and leaves it alone", async () => {
    for (const res of [
      await owner.patch(`/hub/api/keys/${theirs()}`, { name: 'stolen' }),
      await owner.post(`/hub/api/keys/${theirs()}/revoke`),
      await owner.post(`/hub/api/keys/${theirs()}/roll`, { grace: 'none' }),
    ]) {
      expectError(res, 404, 'not_found', 'resource_not_found');
    }
    expect((await workflows(s.other.keys.theirs)).statusCode).toBe(200);
    const row = await t.db.query<{ name: string }>('select name from api_keys where id = $1', [theirs()]);
    expect(row[0].name).toBe('Theirs');
  });

  it('refuses state changes without the CSRF token or from another origin', async () => {
    const id = s.acme.key_ids.main;
    await expectCsrfRefused(owner, 'POST', '/hub/api/keys', { name: 'csrf', scopes: [] });
    await expectCsrfRefused(owner, 'PATCH', `/hub/api/keys/${id}`, { name: 'csrf' });
    await expectCsrfRefused(owner, 'POST', `/hub/api/keys/${id}/revoke`, {});
    await expectCsrfRefused(owner, 'POST', `/hub/api/keys/${id}/roll`, { grace: 'none' });
    expect((await workflows(s.acme.keys.main)).statusCode).toBe(200);
    expect(await t.db.query(`select 1 from api_keys where name = 'csrf'`)).toEqual([]);
  });
});
