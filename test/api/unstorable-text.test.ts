// Text no store can hold: a NUL character (U+0000) in a string parameter or body field would reach
// PostgreSQL, which cannot store or compare it (a 500), and an unpaired surrogate would be stored
// silently replaced by U+FFFD. Both are "a value it cannot take": 400 invalid_parameter (query)
// and 422 invalid_field (body), `param` naming the culprit, refused once for every route
// (src/http/validation.ts) and leaving nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;
const SCOPES = ['contacts:read', 'contacts:write', 'content:read', 'content:write', 'workmgmt:read'] as const;

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(acme.keys.main) });
const send = (method: 'POST' | 'PATCH', url: string, body: unknown) =>
  t.app.inject({ method, url, headers: { ...bearer(acme.keys.main), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const count = async (table: string) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table} where account_id = $1`, [acme.id]))[0].n;

beforeAll(async () => {
  t = await testApp();
  const s = await seed(t.db, {
    ...account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: [...SCOPES] }] }),
    projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }],
    contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann' }],
    workmgmt: { site: { items: [{ key: 'WEB-1', type: 'story', title: 'Pricing page', labels: ['web'] }] } },
  });
  acme = s.acme;
});
afterAll(() => t?.close());

describe('a NUL character in input is refused as a bad value, never a 500', () => {
  it('contacts: create and update answer 422 invalid_field naming the field; the list filters answer 400 invalid_parameter', async () => {
    const before = await count('contacts');
    expectError(await send('POST', '/v1/contacts', { email: 'nul1@example.org', first_name: 'a\u0000b' }), 422, 'invalid_request', 'invalid_field', 'first_name');
    expectError(await send('POST', '/v1/contacts', { email: 'nul2@example.org', tags: ['a\u0000b'] }), 422, 'invalid_request', 'invalid_field', 'tags');
    expectError(await send('POST', '/v1/contacts', { email: 'nu\u0000l3@example.org' }), 422, 'invalid_request', 'invalid_field', 'email');
    expect(await count('contacts')).toBe(before);
    expectError(await send('PATCH', `/v1/contacts/${acme.contacts.ann}`, { last_name: 'a\u0000b' }), 422, 'invalid_request', 'invalid_field', 'last_name');
    expectError(await get('/v1/contacts?q=a%00b'), 400, 'invalid_request', 'invalid_parameter', 'q');
    expectError(await get('/v1/contacts?email=a%00b@example.org'), 400, 'invalid_request', 'invalid_parameter', 'email');
  });

  it('Create a page: a NUL in title, markdown or html answers 422 invalid_field naming it, and no page is written', async () => {
    const url = `/v1/projects/${acme.projects.site}/items`;
    const before = await count('content_items');
    expectError(await send('POST', url, { title: 'a\u0000b', markdown: 'x' }), 422, 'invalid_request', 'invalid_field', 'title');
    expectError(await send('POST', url, { title: 'Notes', markdown: 'x\u0000y' }), 422, 'invalid_request', 'invalid_field', 'markdown');
    expectError(await send('POST', url, { title: 'Notes', html: '<p>x\u0000y</p>' }), 422, 'invalid_request', 'invalid_field', 'html');
    expect(await count('content_items')).toBe(before);
  });

  it('work-management items: a NUL in the label or q filter answers 400 invalid_parameter naming it', async () => {
    const url = `/v1/workmgmt/projects/${acme.projects.site}/items`;
    expectError(await get(`${url}?label=a%00b`), 400, 'invalid_request', 'invalid_parameter', 'label');
    expectError(await get(`${url}?q=a%00b`), 400, 'invalid_request', 'invalid_parameter', 'q');
  });
});

describe('an unpaired surrogate is refused the same way, never stored altered', () => {
  it('in a body field (also inside an array, and as an object key), and in a query parameter', async () => {
    const before = await count('contacts');
    expectError(await send('POST', '/v1/contacts', { email: 'lone1@example.org', first_name: 'a\ud800b' }), 422, 'invalid_request', 'invalid_field', 'first_name');
    expectError(await send('POST', '/v1/contacts', { email: 'lone2@example.org', tags: ['ok', '\udc00'] }), 422, 'invalid_request', 'invalid_field', 'tags');
    // JSON.stringify would escape a lone surrogate; the raw \u escape is what a client sends.
    const raw = (body: string) =>
      t.app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...bearer(acme.keys.main), 'content-type': 'application/json' }, payload: body });
    expectError(await raw('{"email":"lone3@example.org","last_name":"x\\udbff"}'), 422, 'invalid_request', 'invalid_field', 'last_name');
    expect(await count('contacts')).toBe(before);
    // Percent-encoded bytes that are not UTF-8 (a surrogate's encoding, a stray byte) are no text
    // either: refused or read as U+FFFD, never a 500.
    for (const q of ['%ED%A0%80abc', 'ab%FFcd', '%C0%80']) {
      const res = await get(`/v1/contacts?q=${q}`);
      expect([200, 400], res.body).toContain(res.statusCode);
    }
  });

  it('a well-formed pair (an emoji) and other non-ASCII text are taken as they are', async () => {
    const res = await send('POST', '/v1/contacts', { email: 'emoji@example.org', first_name: 'Zoë 🎉', tags: ['日本'] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ first_name: 'Zoë 🎉', tags: ['日本'] });
  });
});
