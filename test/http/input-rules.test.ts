// How the API reads what a client sends, where the transport could be read two ways (issue 10):
// a query string with malformed percent-encoding, a JSON object with a key twice, a JSON body
// declared in a charset other than UTF-8. Each is the spec's error, never a guess; a refused
// request uses up no Idempotency-Key and writes nothing. And the OpenAPI document says what the
// spec says about Idempotency-Key (required on startRun and enrollContacts) and startRun's body
// (optional), while a missing key is still 400 missing_idempotency_key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from './fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;
const SCOPES = ['contacts:read', 'contacts:write', 'workflows:read', 'workflows:run', 'automations:enroll', 'automations:read'] as const;
const blocks = [{ id: 'a', kind: 'source.text', config: { text: 'hello' } }];
const steps = [{ id: 'e1', name: 'Hello', type: 'email.send', config: { subject: 'Hi', body: 'Hello' } }];

beforeAll(async () => {
  t = await testApp();
  const s = await seed(t.db, {
    ...account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: [...SCOPES] }], projects: ['p'] }),
    credit_micros: 10_000_000,
    workflows: [{ ref: 'wf', name: 'Runnable', status: 'active', blocks, edges: [] }],
    automations: [{ ref: 'welcome', name: 'Welcome', project: 'p', status: 'published', trigger: { type: 'manual', label: 'By hand' }, steps }],
    contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
  });
  acme = s.acme;
});
afterAll(() => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(acme.keys.main) });
const postRaw = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...bearer(acme.keys.main), 'content-type': 'application/json', ...headers }, payload });
const count = async (table: string) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table} where account_id = $1`, [acme.id]))[0].n;

describe('malformed percent-encoding in the query string → 400 invalid_parameter', () => {
  it('a truncated escape in a value names the parameter (it is never searched as literal text)', async () => {
    expectError(await get('/v1/contacts?q=%E0%A4%A'), 400, 'invalid_request', 'invalid_parameter', 'q');
    expectError(await get('/v1/contacts?limit=5&q=ab%2'), 400, 'invalid_request', 'invalid_parameter', 'q');
    expectError(await get('/v1/workflows?status=%ZZ'), 400, 'invalid_request', 'invalid_parameter', 'status');
  });

  it('bytes that are not UTF-8 (a stray byte, an encoded surrogate, an overlong form) are malformed too', async () => {
    for (const v of ['ab%FFcd', '%ED%A0%80abc', '%C0%80']) {
      expectError(await get(`/v1/contacts?email=${v}`), 400, 'invalid_request', 'invalid_parameter', 'email');
    }
  });

  it('in a parameter name: refused without a param (its name cannot be known), before any unknown_parameter', async () => {
    expectError(await get('/v1/contacts?q%E0=1'), 400, 'invalid_request', 'invalid_parameter');
    expectError(await get('/v1/workflows?%=1'), 400, 'invalid_request', 'invalid_parameter');
  });

  it('on a route that takes no query parameters as well', async () => {
    expectError(await get(`/v1/workflows/${acme.workflows.wf}?x=%G1`), 400, 'invalid_request', 'invalid_parameter', 'x');
  });

  it('well-formed encodings are read as before: %25 is a literal %, + a space, UTF-8 escapes their letters', async () => {
    const created = await postRaw('/v1/contacts', JSON.stringify({ email: 'zoe@example.org', first_name: 'Zoë 100%' }));
    expect(created.statusCode, created.body).toBe(201);
    for (const q of ['Zo%C3%AB', 'zo%C3%AB+100%25', 'Zo%c3%ab']) {
      const res = await get(`/v1/contacts?q=${q}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.map((c: { email: string }) => c.email)).toEqual(['zoe@example.org']);
    }
  });
});

describe('a key twice in one JSON object → 400 invalid_json', () => {
  it('at the top level, naming the key; nothing is written', async () => {
    const before = await count('contacts');
    expectError(await postRaw('/v1/contacts', '{"email":"a1@example.org","email":"b1@example.org"}'), 400, 'invalid_request', 'invalid_json', 'email');
    // Spelled differently, the same key: JSON escapes are decoded before comparing.
    expectError(await postRaw('/v1/contacts', '{"email":"a2@example.org","\\u0065mail":"b2@example.org"}'), 400, 'invalid_request', 'invalid_json', 'email');
    expect(await count('contacts')).toBe(before);
  });

  it('at any depth (inside an array of objects), the param naming the path to it', async () => {
    const dup = '{"email":"a3@example.org","tags":["x"],"first_name":"A","extra":[{"k":1,"k":2}]}';
    expectError(await postRaw('/v1/contacts', dup), 400, 'invalid_request', 'invalid_json', 'extra.k');
  });

  it('equal keys in different objects, and a duplicate inside a string value, are fine', async () => {
    const res = await postRaw('/v1/contacts', JSON.stringify({ email: 'a4@example.org', first_name: '{"a":1,"a":2}' }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a refused enrollment uses up no Idempotency-Key: the same key then enrolls', async () => {
    const url = `/v1/automations/${acme.automations.welcome}/enrollments`;
    const headers = { 'idempotency-key': 'dup-keys-enroll-0001' };
    const runs = await count('automation_runs');
    const ids = JSON.stringify([acme.contacts.ann]);
    expectError(await postRaw(url, `{"contact_ids":${ids},"contact_ids":[]}`, headers), 400, 'invalid_request', 'invalid_json', 'contact_ids');
    expect(await count('automation_runs')).toBe(runs);
    const ok = await postRaw(url, `{"contact_ids":${ids}}`, headers);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['idempotent-replay']).toBeUndefined();
    expect(ok.json().enrolled).toBe(1);
  });
});

describe('Content-Type charset', () => {
  it.each(['latin1', 'ISO-8859-1', 'utf-16', '"windows-1252"', ''])('application/json; charset=%s → 415 unsupported_media_type, nothing written', async (cs) => {
    const before = await count('contacts');
    const res = await postRaw('/v1/contacts', JSON.stringify({ email: `cs${cs.length}@example.org` }), { 'content-type': `application/json; charset=${cs}` });
    expectError(res, 415, 'invalid_request', 'unsupported_media_type');
    expect(await count('contacts')).toBe(before);
  });

  it.each(['utf-8', 'UTF-8', 'utf8', 'Utf8', '"utf-8"', '"UTF-8"'])('charset=%s is UTF-8: accepted', async (cs) => {
    const email = `ok-${cs.replace(/\W/g, '')}-${Math.random().toString(36).slice(2)}@example.org`;
    const res = await postRaw('/v1/contacts', JSON.stringify({ email, first_name: 'Zoë' }), { 'content-type': `application/json; CHARSET=${cs}` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().first_name).toBe('Zoë');
  });

  it('a refused charset with an Idempotency-Key does not use the key up', async () => {
    const headers = { 'idempotency-key': 'charset-key-0001' };
    const body = JSON.stringify({ email: 'keyed@example.org' });
    expectError(await postRaw('/v1/contacts', body, { ...headers, 'content-type': 'application/json; charset=latin1' }), 415, 'invalid_request', 'unsupported_media_type');
    const ok = await postRaw('/v1/contacts', body, headers);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.headers['idempotent-replay']).toBeUndefined();
  });
});

describe('OpenAPI: Idempotency-Key and the run-start body', () => {
  type Param = { name: string; in: string; required?: boolean };
  type Op = { parameters?: Param[]; requestBody?: { required?: boolean; content: Record<string, { schema: Record<string, unknown> }> } };

  const operation = async (path: string, method: string): Promise<Op> => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json().paths[path][method];
  };
  const keyParam = (op: Op) => op.parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');

  it('startRun and enrollContacts declare the header required; createContact and createPage optional', async () => {
    expect(keyParam(await operation('/v1/workflows/{id}/runs', 'post'))?.required).toBe(true);
    expect(keyParam(await operation('/v1/automations/{id}/enrollments', 'post'))?.required).toBe(true);
    expect(keyParam(await operation('/v1/contacts', 'post'))?.required).toBe(false);
    expect(keyParam(await operation('/v1/projects/{id}/items', 'post'))?.required).toBe(false);
  });

  it("startRun's body is optional (and the marking leaves nothing behind); enrollContacts' required", async () => {
    const start = await operation('/v1/workflows/{id}/runs', 'post');
    expect(start.requestBody?.required).toBe(false);
    expect(JSON.stringify(start)).not.toContain('x-optional-body');
    expect((await operation('/v1/automations/{id}/enrollments', 'post')).requestBody?.required).toBe(true);
  });

  it('behaviour is unchanged: no key is still 400 missing_idempotency_key naming the header, and no body still starts a run', async () => {
    const runUrl = `/v1/workflows/${acme.workflows.wf}/runs`;
    const noKey = await t.app.inject({ method: 'POST', url: runUrl, headers: bearer(acme.keys.main) });
    expectError(noKey, 400, 'invalid_request', 'missing_idempotency_key', 'Idempotency-Key');
    const enrollUrl = `/v1/automations/${acme.automations.welcome}/enrollments`;
    expectError(await postRaw(enrollUrl, JSON.stringify({ contact_ids: [acme.contacts.ann] })), 400, 'invalid_request', 'missing_idempotency_key', 'Idempotency-Key');
    const started = await t.app.inject({ method: 'POST', url: runUrl, headers: { ...bearer(acme.keys.main), 'idempotency-key': 'no-body-run-0001' } });
    expect(started.statusCode, started.body).toBe(202);
  });
});
