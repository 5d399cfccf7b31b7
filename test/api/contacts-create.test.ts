// POST /v1/contacts: one contact per normalised address (also under 20 concurrent requests; real
// races with another transaction on PostgreSQL: contacts-races.postgres.test.ts), erased addresses refused, archived ones still taken, the optional
// Idempotency-Key, the contact.created automations it starts (and never for a refused create),
// every refusal, scopes and subscription_inactive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { contactRequests, expectExists, seedContactsWorld } from './contacts-support.js';
import { bearer, expectError, ISO_MS, UUID_RE } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let c: Record<string, string>;
let seq = 0;

const JSON_HEADERS = { 'content-type': 'application/json' };
const { post, get, row } = contactRequests(() => t, () => acme.keys.main);
const fresh = (tag = 'new') => `${tag}${++seq}@fresh.example`;
const runsOf = (contactId: string) =>
  t.db.query<{ automation_id: string; status: string; started_by: string }>('select automation_id, status, started_by from automation_runs where contact_id = $1', [contactId]);
const countContacts = async (accountId: string) =>
  (await t.db.query<{ n: number }>('select count(*)::int as n from contacts where account_id = $1', [accountId]))[0].n;

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  const steps = [{ id: 'e1', name: 'Welcome', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }];
  s = await seedContactsWorld(t, erasure.secret, {
    projects: ['p'],
    automations: [
      { ref: 'welcome', name: 'Welcome', project: 'p', status: 'published', trigger: { type: 'contact.created', label: 'New contact' }, steps },
      { ref: 'drafted', name: 'Draft', project: 'p', status: 'draft', trigger: { type: 'contact.created', label: 'New contact' }, steps },
      { ref: 'manual', name: 'Manual', project: 'p', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps },
    ],
  });
  acme = s.acme;
  c = acme.contacts;
});
afterAll(() => t?.close());

describe('POST /contacts', () => {
  it('201 with the contact: address trimmed (case kept), unassigned, defaults for what was not sent', async () => {
    const res = await post({ email: '  New.Person@Fresh.example ' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(UUID_RE), email: 'New.Person@Fresh.example', first_name: null, last_name: null, phone: null, lifecycle_stage: null,
      do_not_contact: false, email_opt_out: false, sms_consent: 'none', tags: [], assignee: null,
      created_at: expect.stringMatching(ISO_MS), updated_at: body.created_at,
    });
    expect((await get(body.id)).json()).toEqual(body);
    expect(await row(body.id)).toMatchObject({ email_normalized: 'new.person@fresh.example', archived_at: null, erased_at: null });
  });

  it('takes every field but assignee; null means empty', async () => {
    const full = {
      email: fresh(), first_name: 'Zoë', last_name: 'Ng', phone: '+44 (20) 7946-0000', lifecycle_stage: 'customer',
      do_not_contact: true, email_opt_out: true, sms_consent: 'revoked', tags: ['x', 'y'],
    };
    const res = await post(full);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ ...full, assignee: null });
    const nulls = await post({ email: fresh(), first_name: null, phone: null, do_not_contact: null, sms_consent: null, tags: null });
    expect(nulls.json()).toMatchObject({ first_name: null, phone: null, do_not_contact: false, sms_consent: 'none', tags: [] });
  });

  it.each([
    ['no email', { first_name: 'A' }, 400, 'missing_field', 'email'],
    ['an empty body', {}, 400, 'missing_field', 'email'],
    ['a malformed email', { email: 'not an address' }, 422, 'invalid_field', 'email'],
    ['an email without a domain dot', { email: 'a@b' }, 422, 'invalid_field', 'email'],
    ['a blank email', { email: '   ' }, 422, 'invalid_field', 'email'],
    ['a null email', { email: null }, 422, 'invalid_field', 'email'],
    ['a numeric email', { email: 42 }, 422, 'invalid_field', 'email'],
    ['an assignee', { email: 'x@fresh.example', assignee: uuidv7() }, 422, 'unknown_field', 'assignee'],
    ['an unknown field', { email: 'x@fresh.example', company: 'Acme' }, 422, 'unknown_field', 'company'],
    ['a bad lifecycle_stage', { email: 'x@fresh.example', lifecycle_stage: 'prospect' }, 422, 'invalid_field', 'lifecycle_stage'],
    ['a bad sms_consent', { email: 'x@fresh.example', sms_consent: 'yes' }, 422, 'invalid_field', 'sms_consent'],
    ['a string for a flag', { email: 'x@fresh.example', do_not_contact: 'false' }, 422, 'invalid_field', 'do_not_contact'],
    ['a duplicate tag', { email: 'x@fresh.example', tags: ['a', 'a'] }, 422, 'invalid_field', 'tags'],
    ['a blank tag', { email: 'x@fresh.example', tags: [' '] }, 422, 'invalid_field', 'tags'],
    ['a phone with letters', { email: 'x@fresh.example', phone: 'call me' }, 422, 'invalid_field', 'phone'],
    ['a first name over 200 characters', { email: 'x@fresh.example', first_name: 'a'.repeat(201) }, 422, 'invalid_field', 'first_name'],
  ])('refuses %s and creates nothing', async (_what, body, status, code, param) => {
    const before = await countContacts(acme.id);
    expectError(await post(body), status, 'invalid_request', code, param);
    expect(await countContacts(acme.id)).toBe(before);
  });

  it('refuses a body that is not a JSON object, or not JSON', async () => {
    for (const payload of ['[]', 'null', '"x@y.example"']) {
      expectError(await t.app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...bearer(acme.keys.main), ...JSON_HEADERS }, payload }), 422, 'invalid_request', 'invalid_body');
    }
    expectError(await t.app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...bearer(acme.keys.main), ...JSON_HEADERS }, payload: '{"email":' }), 400, 'invalid_request', 'invalid_json');
  });

  it('a taken address (any case or padding) → 409 contact_exists with the holder in resource_id', async () => {
    for (const email of ['ann@example.org', ' ANN@Example.ORG ']) expectExists(await post({ email, first_name: 'Other' }), c.ann);
    expect((await get(c.ann)).json().first_name).toBe('Ann');
  });

  it("an archived contact's address is still taken: 409 contact_exists naming the archived contact", async () => {
    expectExists(await post({ email: 'OLD@example.org' }), c.old);
  });

  it("an erased person's address → 409 contact_do_not_contact, whatever its case", async () => {
    for (const email of ['gone@example.org', ' GONE@EXAMPLE.ORG']) {
      expectError(await post({ email }), 409, 'conflict', 'contact_do_not_contact', 'email');
    }
    expect(await t.db.query(`select 1 from contacts where account_id = $1 and email_normalized = 'gone@example.org'`, [acme.id])).toEqual([]);
  });

  it('20 concurrent creates of one address (cased and padded differently) make exactly one contact', async () => {
    const variants = Array.from({ length: 20 }, (_, i) => `${' '.repeat(i % 3)}${i % 2 ? 'RACE' : 'race'}@Concurrent.example${' '.repeat(i % 2)}`);
    const answers = await Promise.all(variants.map((email, i) => post({ email, first_name: `Racer ${i}` })));
    const created = answers.filter((r) => r.statusCode === 201);
    expect(created).toHaveLength(1);
    const id = created[0].json().id;
    for (const r of answers.filter((x) => x !== created[0])) expectExists(r, id);
    const rows = await t.db.query(`select id from contacts where account_id = $1 and email_normalized = 'race@concurrent.example'`, [acme.id]);
    expect(rows).toEqual([{ id }]);
    // Only the winner started its automation.
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('the address is unique per account only', async () => {
    const res = await post({ email: 'theirs@example.org' });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('POST /contacts with an Idempotency-Key', () => {
  it('same key and body → the first answer again with Idempotent-Replay: true, and still one contact', async () => {
    const body = { email: fresh('idem'), first_name: 'Ida' };
    const key = { 'idempotency-key': `contact-${uuidv7()}` };
    const first = await post(body, acme.keys.main, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replay']).toBeUndefined();
    const again = await post(body, acme.keys.main, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await t.db.query('select id from contacts where email_normalized = $1', [body.email])).toHaveLength(1);
    expectError(await post({ ...body, first_name: 'Other' }, acme.keys.main, key), 422, 'invalid_request', 'idempotency_key_reused', 'Idempotency-Key');
  });

  it('without a key, the same request again is 409 contact_exists (never a second contact)', async () => {
    const body = { email: fresh('nokey') };
    const first = await post(body);
    expect(first.statusCode).toBe(201);
    expectExists(await post(body), first.json().id);
  });

  it('a refused create does not use up its key; a malformed key is 400', async () => {
    const key = { 'idempotency-key': `contact-${uuidv7()}` };
    expectExists(await post({ email: 'ann@example.org' }, acme.keys.main, key), c.ann);
    const retry = await post({ email: fresh('retry') }, acme.keys.main, key);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replay']).toBeUndefined();
    expectError(await post({ email: fresh() }, acme.keys.main, { 'idempotency-key': 'short' }), 400, 'invalid_request', 'invalid_idempotency_key', 'Idempotency-Key');
  });
});

describe('contact.created automations', () => {
  it('a contact created through the API gets a run of each published contact.created automation, no other', async () => {
    const res = await post({ email: fresh('auto'), lifecycle_stage: 'lead' });
    const runs = await runsOf(res.json().id);
    expect(runs).toEqual([{ automation_id: acme.automations.welcome, status: 'running', started_by: 'New contact' }]);
  });

  it('a refused create starts nothing, and the endpoint itself writes no message', async () => {
    const before = await t.db.query('select count(*)::int as n from automation_runs where account_id = $1', [acme.id]);
    const outbox = await t.db.query('select count(*)::int as n from outbox where account_id = $1', [acme.id]);
    expectExists(await post({ email: 'cy@example.org' }), c.cy);
    expectError(await post({ email: 'gone@example.org' }), 409, 'conflict', 'contact_do_not_contact', 'email');
    expect(await t.db.query('select count(*)::int as n from automation_runs where account_id = $1', [acme.id])).toEqual(before);
    expect(await t.db.query('select count(*)::int as n from outbox where account_id = $1', [acme.id])).toEqual(outbox);
  });
});

// Real concurrency needs several connections: another transaction holds a change to the contested
// row uncommitted until the request under test is seen waiting on its lock, then commits.
describe('access', () => {
  it('a key with contacts:read only → 403 insufficient_scope naming contacts:write', async () => {
    const e = expectError(await post({ email: fresh() }, acme.keys.reader), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('contacts:write');
  });

  it('an inactive subscription refuses POST (403 subscription_inactive) but GET works', async () => {
    const k = s.lapsed.keys.main;
    expectError(await post({ email: fresh() }, k), 403, 'permission', 'subscription_inactive');
    expect((await get(s.lapsed.contacts.kim, k)).statusCode).toBe(200);
    expect(await countContacts(s.lapsed.id)).toBe(1);
  });
});
