// PATCH /v1/contacts/{id}: only sent fields change, null clears, opt-outs locked (nothing changes
// on a refusal), a no-op leaves updated_at alone, no lost update under concurrency, address
// changes kept unique (a real race on PostgreSQL: contacts-races.postgres.test.ts), every refusal, scopes,
// subscription_inactive, and other accounts' contacts answered 404 like unknown ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { contactRequests, expectExists, seedContactsWorld } from './contacts-support.js';
import { bearer, expectError } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let c: Record<string, string>;
let seq = 0;

const JSON_HEADERS = { 'content-type': 'application/json' };
const { post, patch, get, row } = contactRequests(() => t, () => acme.keys.main);
const fresh = (tag = 'new') => `${tag}${++seq}@fresh.example`;

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  s = await seedContactsWorld(t, erasure.secret);
  acme = s.acme;
  c = acme.contacts;
});
afterAll(() => t?.close());

describe('PATCH /contacts/{id}', () => {
  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await post({ email: fresh('p'), ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const backdate = (id: string) => t.db.query(`update contacts set updated_at = '2026-01-01T00:00:00.001Z' where id = $1`, [id]);

  it('changes only the fields sent and moves updated_at', async () => {
    const before = await create({ first_name: 'Al', last_name: 'Bo', phone: '555 0101', tags: ['t'], lifecycle_stage: 'lead' });
    await backdate(before.id);
    const res = await patch(before.id, { first_name: 'Alan', lifecycle_stage: 'customer', sms_consent: 'granted' });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json();
    expect(after).toEqual({ ...before, first_name: 'Alan', lifecycle_stage: 'customer', sms_consent: 'granted', updated_at: after.updated_at });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse('2026-01-01T00:00:00.001Z'));
    expect((await get(before.id)).json()).toEqual(after);
  });

  it('null clears: text and lifecycle_stage to null, tags to [], sms_consent to none, assignee to unassigned', async () => {
    const res = await patch(c.ann, { first_name: null, last_name: null, phone: null, lifecycle_stage: null, tags: null, sms_consent: null, assignee: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      email: 'ann@example.org', first_name: null, last_name: null, phone: null, lifecycle_stage: null, tags: [], sms_consent: 'none', assignee: null,
    });
  });

  it('{} and a repeated change are no-ops that leave updated_at alone (a changed_since sync does not loop)', async () => {
    const x = await create({ first_name: 'Same', tags: ['a', 'b'] });
    await backdate(x.id);
    const stamp = (await get(x.id)).json().updated_at;
    for (const body of [{}, { first_name: 'Same' }, { tags: ['a', 'b'], do_not_contact: false, email: x.email }, { phone: null, assignee: null }]) {
      const res = await patch(x.id, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().updated_at).toBe(stamp);
    }
    const changed = await patch(x.id, { tags: ['b', 'a'] });
    expect(changed.json().updated_at).not.toBe(stamp);
  });

  it('sets do_not_contact and email_opt_out to true', async () => {
    const x = await create();
    expect((await patch(x.id, { do_not_contact: true, email_opt_out: true })).json()).toMatchObject({ do_not_contact: true, email_opt_out: true });
    expect((await patch(x.id, { do_not_contact: true })).statusCode).toBe(200);
  });

  it.each([
    ['do_not_contact', false],
    ['do_not_contact', null],
    ['email_opt_out', false],
    ['email_opt_out', null],
  ])('%s set to %s while true → 409 opt_out_locked naming it, and nothing changes', async (field, value) => {
    const before = await row(c.bob);
    expectError(await patch(c.bob, { first_name: 'Robert', [field]: value }), 409, 'conflict', 'opt_out_locked', field);
    expect(await row(c.bob)).toEqual(before);
  });

  it('changes the email (case-only changes too) and keeps it unique', async () => {
    const x = await create();
    const moved = await patch(x.id, { email: ` Moved.${x.email} ` });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().email).toBe(`Moved.${x.email}`);
    const recased = await patch(x.id, { email: `MOVED.${x.email}` });
    expect(recased.json().email).toBe(`MOVED.${x.email}`);
    expect(await row(x.id)).toMatchObject({ email_normalized: `moved.${x.email}` });
    // the old address is free again
    expect((await post({ email: x.email })).statusCode).toBe(201);
  });

  it("email to another contact's (live or archived) → 409 contact_exists; to an erased one → 409 contact_do_not_contact", async () => {
    const before = await row(c.cy);
    expectExists(await patch(c.cy, { email: 'DI@example.org', first_name: 'Cyrus' }), c.di);
    expectExists(await patch(c.cy, { email: 'old@example.org' }), c.old);
    expectError(await patch(c.cy, { email: 'gone@EXAMPLE.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    expect(await row(c.cy)).toEqual(before);
  });

  it('refuses email null or malformed, unknown fields and bad values with 422', async () => {
    expectError(await patch(c.cy, { email: null }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await patch(c.cy, { email: 'nope' }), 422, 'invalid_request', 'invalid_field', 'email');
    expectError(await patch(c.cy, { company: 'x' }), 422, 'invalid_request', 'unknown_field', 'company');
    expectError(await patch(c.cy, { tags: 'a' }), 422, 'invalid_request', 'invalid_field', 'tags');
    expectError(await patch(c.cy, { assignee: 'adam' }), 422, 'invalid_request', 'invalid_field', 'assignee');
    expectError(await t.app.inject({ method: 'PATCH', url: `/v1/contacts/${c.cy}`, headers: { ...bearer(acme.keys.main), ...JSON_HEADERS }, payload: '[]' }), 422, 'invalid_request', 'invalid_body');
  });

  it("assignee: a user of the account, or null; another account's user or an unknown id → 422 invalid_field", async () => {
    const x = await create();
    const assigned = (await patch(x.id, { assignee: acme.users.adam })).json();
    expect(assigned.assignee).toBe(acme.users.adam);
    await backdate(x.id);
    const stamp = (await get(x.id)).json().updated_at;
    // the same user spelled in upper case is no change
    expect((await patch(x.id, { assignee: acme.users.adam.toUpperCase() })).json()).toMatchObject({ assignee: acme.users.adam, updated_at: stamp });
    for (const user of [s.other.users.eve, uuidv7()]) {
      expectError(await patch(x.id, { assignee: user }), 422, 'invalid_request', 'invalid_field', 'assignee');
    }
    expect((await get(x.id)).json().assignee).toBe(acme.users.adam);
    expect((await patch(x.id, { assignee: null })).json().assignee).toBeNull();
  });

  it('an Idempotency-Key header means nothing here: ignored, even a malformed one', async () => {
    const x = await create();
    const res = await patch(x.id, { first_name: 'Keyed' }, acme.keys.main, { 'idempotency-key': 'x' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['idempotent-replay']).toBeUndefined();
    expect((await patch(x.id, { first_name: 'Again' }, acme.keys.main, { 'idempotency-key': 'same-key-123' })).json().first_name).toBe('Again');
    expect((await patch(x.id, { first_name: 'Third' }, acme.keys.main, { 'idempotency-key': 'same-key-123' })).json().first_name).toBe('Third');
  });

  it('concurrent PATCHes of different fields all land (none is lost)', async () => {
    const x = await create();
    const bodies = [
      { first_name: 'F' }, { last_name: 'L' }, { phone: '123' }, { lifecycle_stage: 'opportunity' }, { sms_consent: 'granted' },
      { tags: ['t1'] }, { email_opt_out: true }, { assignee: acme.users.adam }, { do_not_contact: true }, { email: `renamed-${x.email}` },
    ];
    const answers = await Promise.all(bodies.map((b) => patch(x.id, b)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect((await get(x.id)).json()).toMatchObject(Object.assign({}, ...bodies));
  });

  it('two contacts changed to one new address at once: one succeeds, the other gets 409 contact_exists naming it', async () => {
    const [x, y] = [await create(), await create()];
    const email = fresh('contested');
    const [a, b] = await Promise.all([patch(x.id, { email }), patch(y.id, { email })]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const [won, lost] = a.statusCode === 200 ? [x, b] : [y, a];
    expectExists(lost, won.id);
  });

  it('archived, erased, unknown and other accounts\' contacts → the same 404, and stay unchanged', async () => {
    const theirs = await row(s.other.contacts.theirs);
    const answers = [];
    for (const id of [c.old, c.gone, s.other.contacts.theirs, uuidv7()]) {
      const { request_id: _r, ...e } = expectError(await patch(id, { first_name: 'Hacked' }), 404, 'not_found', 'resource_not_found');
      answers.push(e);
    }
    for (const e of answers) expect(e).toEqual(answers[0]);
    expect(await row(s.other.contacts.theirs)).toEqual(theirs);
    expectError(await patch('nope', {}), 400, 'invalid_request', 'invalid_id', 'id');
  });
});

// Real concurrency needs several connections: another transaction holds a change to the contested
// row uncommitted until the request under test is seen waiting on its lock, then commits.
describe('access', () => {
  it('a key with contacts:read only → 403 insufficient_scope naming contacts:write', async () => {
    const e = expectError(await patch(c.cy, { first_name: 'X' }, acme.keys.reader), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('contacts:write');
  });

  it('an inactive subscription refuses PATCH (403 subscription_inactive) but GET works', async () => {
    const k = s.lapsed.keys.main;
    const kim = s.lapsed.contacts.kim;
    const before = await row(kim);
    expectError(await patch(kim, { first_name: 'K' }, k), 403, 'permission', 'subscription_inactive');
    expect((await get(kim, k)).statusCode).toBe(200);
    expect(await row(kim)).toEqual(before);
  });

  it('DELETE is not an operation: 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${c.cy}`, headers: bearer(acme.keys.main) });
    expectError(res, 405, 'invalid_request', 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, PATCH');
  });
});
