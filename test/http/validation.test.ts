// Query, path and cursor validation on the workflow routes (docs/architecture.md §6.1 step 8, §7):
// every refusal is the spec's 400 with `param` naming the culprit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from './fixtures.js';

let t: TestApp;
let a: AccountSeedResult;
let b: AccountSeedResult;
let c: AccountSeedResult;

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
const listA = (qs = '') => get(a.keys.main, `/v1/workflows${qs}`);

beforeAll(async () => {
  t = await testApp();
  const wfs = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ ref: `${prefix}${i}`, status: i % 2 ? 'active' : 'draft' }));
  const s = await seed(t.db, account('a', { tier: 'enterprise', workflows: wfs('a', 6) }), account('b', { tier: 'enterprise', workflows: wfs('b', 6) }));
  a = s.a;
  b = s.b;
  c = (await seed(t.db, account('c', { keys: [{ scopes: ['contacts:read', 'content:read', 'workmgmt:read', 'usage:read'] }], projects: ['p'] }))).c;
});
afterAll(() => t?.close());

describe('accepted values', () => {
  it.each(['1', '2', '25', '100'])('limit=%s', async (limit) => {
    const res = await listA(`?limit=${limit}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(Math.min(Number(limit), 6));
  });

  it.each(['draft', 'active', 'paused'])('status=%s', async (status) => {
    const res = await listA(`?status=${status}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.every((w: { status: string }) => w.status === status)).toBe(true);
  });
});

describe('unknown_parameter', () => {
  it('?foo=1 on the list → 400 unknown_parameter naming foo', async () => {
    expectError(await listA('?foo=1'), 400, 'invalid_request', 'unknown_parameter', 'foo');
    expectError(await listA('?limit=2&foo=1'), 400, 'invalid_request', 'unknown_parameter', 'foo');
  });

  it('parameters that differ only in case are unknown (?Limit=5)', async () => {
    expectError(await listA('?Limit=5'), 400, 'invalid_request', 'unknown_parameter', 'Limit');
  });

  it('?foo=1 on GET /workflows/{id} → 400 unknown_parameter naming foo', async () => {
    expectError(await get(a.keys.main, `/v1/workflows/${a.workflows.a0}?foo=1`), 400, 'invalid_request', 'unknown_parameter', 'foo');
  });
});

describe('invalid_parameter', () => {
  it.each(['0', '101', 'abc', '1.5', '-1', '', '10abc', '1.0x'])('limit=%j → 400 invalid_parameter (param limit)', async (v) => {
    expectError(await listA(`?limit=${encodeURIComponent(v)}`), 400, 'invalid_request', 'invalid_parameter', 'limit');
  });

  it('limit given twice → 400 invalid_parameter (param limit)', async () => {
    expectError(await listA('?limit=1&limit=2'), 400, 'invalid_request', 'invalid_parameter', 'limit');
  });

  it.each(['bogus', 'Active', 'queued', ''])('status=%j → 400 invalid_parameter (param status)', async (v) => {
    expectError(await listA(`?status=${v}`), 400, 'invalid_request', 'invalid_parameter', 'status');
  });
});

describe('invalid_id', () => {
  it.each(['not-a-uuid', '123', '01a21518-f16c-72c8-8d66-195f692d4bb', '', 'urn:uuid:01a21518-f16c-72c8-8d66-195f692d4bbe'])('project_id=%j → 400 invalid_id (param project_id)', async (v) => {
    expectError(await listA(`?project_id=${v}`), 400, 'invalid_request', 'invalid_id', 'project_id');
  });

  // urn:uuid: passes ajv-formats' uuid but not PostgreSQL's uuid type: it must be a 400, not a 500.
  it.each(['abc', '1', 'not-a-uuid', '01a21518-f16c-72c8-8d66-195f692d4bbeX', "1'%20or%20'1'='1", 'urn:uuid:01a21518-f16c-72c8-8d66-195f692d4bbe'])(
    'path id %j → 400 invalid_id (param id)',
    async (id) => {
      expectError(await get(a.keys.main, `/v1/workflows/${id}`), 400, 'invalid_request', 'invalid_id', 'id');
    },
  );
});

describe('invalid_cursor', () => {
  const cursorOf = async (key: string, qs: string): Promise<string> => {
    const res = await get(key, `/v1/workflows${qs}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.has_more).toBe(true);
    expect(typeof body.next_cursor).toBe('string');
    return body.next_cursor;
  };
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);

  it('a cursor from the same filters works, with any limit', async () => {
    const c = await cursorOf(a.keys.main, '?limit=2');
    expect((await listA(`?limit=2&cursor=${c}`)).statusCode).toBe(200);
    const more = await listA(`?limit=50&cursor=${c}`);
    expect(more.statusCode).toBe(200);
    expect(more.json().data).toHaveLength(4);
  });

  it.each(['garbage', 'abc.def', '.', 'eyJwIjpbXX0', 'eyJwIjpbXSwicyI6IngifQ.AAAAAAAAAAAAAAAAAAAAAA'])(
    'garbage cursor %j → 400 invalid_cursor',
    async (c) => {
      expectError(await listA(`?cursor=${encodeURIComponent(c)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    },
  );

  it('a tampered cursor (one character changed, in the payload or the signature) → 400 invalid_cursor', async () => {
    const c = await cursorOf(a.keys.main, '?limit=2');
    for (const i of [0, 5, c.indexOf('.') - 1, c.indexOf('.') + 1, c.length - 2]) {
      const bad = flip(c, i);
      expect(bad).not.toBe(c);
      expectError(await listA(`?limit=2&cursor=${encodeURIComponent(bad)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    }
  });

  it('a cursor used with other filters → 400 invalid_cursor', async () => {
    const withStatus = await cursorOf(a.keys.main, '?limit=1&status=active');
    expectError(await listA(`?limit=1&cursor=${withStatus}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await listA(`?limit=1&status=draft&cursor=${withStatus}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    const without = await cursorOf(a.keys.main, '?limit=1');
    expectError(await listA(`?limit=1&status=active&cursor=${without}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(
      await listA(`?limit=1&project_id=01a21518-f16c-72c8-8d66-195f692d4bbe&cursor=${without}`),
      400,
      'invalid_request',
      'invalid_cursor',
      'cursor',
    );
  });

  it("a cursor from another account's listing → 400 invalid_cursor", async () => {
    const fromB = await cursorOf(b.keys.main, '?limit=2');
    expect((await get(b.keys.main, `/v1/workflows?limit=2&cursor=${fromB}`)).statusCode).toBe(200);
    expectError(await listA(`?limit=2&cursor=${fromB}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

// The date-time and date formats admit strings that are no moment JS or the stores can hold: a
// leap second, year 0000, a UTC year past 9999 through an offset. Every date parameter of every
// route refuses them as the schema does any bad value (before, some answered 500).
describe('dates that are no real moment', () => {
  const P = '01a21518-f16c-72c8-8d66-195f692d4bbe';
  const cases: Array<[string, string, string]> = [
    ['/v1/contacts?changed_since=', 'changed_since', 'date-time'],
    [`/v1/projects/${P}/items?updated_since=`, 'updated_since', 'date-time'],
    [`/v1/workmgmt/projects/${P}/items?changed_since=`, 'changed_since', 'date-time'],
    ['/v1/usage?from=', 'from', 'date'],
    ['/v1/usage?to=', 'to', 'date'],
  ];
  const BAD = { 'date-time': ['2026-06-30T23:59:60Z', '0000-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00'], date: ['0000-01-01'] };
  for (const [url, param, format] of cases) {
    it.each(BAD[format as keyof typeof BAD])(`${url.split('?')[0]} ${param}=%s → 400 invalid_parameter`, async (v) => {
      expectError(await get(c.keys.main, `${url}${encodeURIComponent(v)}`), 400, 'invalid_request', 'invalid_parameter', param);
    });
  }

  it('real moments at the edges are accepted', async () => {
    expect((await get(c.keys.main, `/v1/contacts?changed_since=${encodeURIComponent('0001-01-01T00:00:00Z')}`)).statusCode).toBe(200);
    expect((await get(c.keys.main, `/v1/contacts?changed_since=${encodeURIComponent('9999-12-31T23:59:59+01:00')}`)).statusCode).toBe(200);
    expect((await get(c.keys.main, '/v1/usage?from=2026-11-01&to=2026-11-30')).statusCode).toBe(200);
  });
});
