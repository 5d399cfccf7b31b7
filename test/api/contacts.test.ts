// GET /v1/contacts and GET /v1/contacts/{id}: the Contact shape of docs/architecture.md §12.9
// exactly, order (most recently changed first), the filters q / email / lifecycle_stage /
// changed_since and their refusals, keyset pagination bound to the filters (no duplicate, no gap),
// and isolation: archived, erased and other accounts' contacts are never listed and answer 404 like
// an unknown id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { loadSecrets } from '../../src/secrets/store.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, UUID_RE, walkPages } from '../http/fixtures.js';

const KEYS = [
  'assignee', 'created_at', 'do_not_contact', 'email', 'email_opt_out', 'first_name', 'id', 'last_name', 'lifecycle_stage', 'phone',
  'sms_consent', 'tags', 'updated_at',
];
const BASE = Date.parse('2026-03-01T12:00:00.123Z');
const MIN = 60_000;
const STAGES = ['subscriber', 'lead', 'customer'] as const;

interface Page {
  data: Array<Record<string, any>>;
  has_more: boolean;
  next_cursor: string | null;
}

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let c: Record<string, string>;

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
async function page(key: string, qs: string): Promise<Page> {
  const res = await get(key, `/v1/contacts${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
}
const ids = (p: Page) => p.data.map((x) => x.id as string);
const list = async (qs: string, key = acme.keys.main) => ids(await page(key, qs));

/** Follows next_cursor to the end. */
const walk = (key: string, qs: string): Promise<Page[]> => walkPages((q) => page(key, q), `?${qs}`);

const setUpdated = (id: string, at: number) => t.db.query('update contacts set updated_at = $1 where id = $2', [new Date(at), id]);

/** The pager account's 60 contacts: names cycle so that q, stage and time filters each keep a share. */
async function insertPager(accountId: string): Promise<void> {
  const params: unknown[] = [];
  const values = Array.from({ length: 60 }, (_, i) => {
    const first = ['Pat', 'Patricia', 'Sam'][i % 3];
    const email = `person${i}@${i % 2 ? 'north' : 'south'}.example`;
    // Each pair (2k, 2k + 1) shares one updated_at: ties are broken by id.
    params.push(accountId, uuidv7(), email, email, first, `Walker${i}`, STAGES[i % 3], new Date(BASE - Math.floor(i / 2) * 1000));
    const n = i * 8;
    return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8})`;
  });
  await t.db.query(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, lifecycle_stage, updated_at) values ${values.join(', ')}`,
    params,
  );
}

/** What a filter should return, straight from the table. */
async function expected(accountId: string, where = 'true', params: unknown[] = []): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>(
    `select id from contacts where account_id = $1 and archived_at is null and erased_at is null and (${where})
      order by updated_at desc, id desc`,
    [accountId, ...params],
  );
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  t = await testApp();
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  const base = account('acme', {
    keys: [{ ref: 'main', scopes: ['contacts:read'] }, { ref: 'wf', scopes: ['workflows:read', 'contacts:write'] }],
  });
  const seeded = await seedFixture(
    t.db,
    {
      accounts: [
        {
          ...base,
          users: [...(base.users as object[]), { ref: 'adam', email: 'adam@acme.example', role: 'member', name: 'Adam' }],
          contacts: [
            {
              ref: 'ann', email: 'Ann.Lee@Example.org', first_name: 'Ann-Marie', last_name: 'Lee', phone: '+1 555 0100', lifecycle_stage: 'lead',
              email_opt_out: true, sms_consent: 'granted', tags: ['newsletter', 'vip'], assignee: 'adam',
            },
            { ref: 'bob', email: 'bob@stone.example', first_name: 'Bob', last_name: 'Stone', lifecycle_stage: 'customer', do_not_contact: true },
            { ref: 'liu', email: 'liu@example.org', first_name: 'Liu' },
            { ref: 'jose', email: 'jose@example.net', first_name: 'José', last_name: 'Müller', lifecycle_stage: 'lead' },
            { ref: 'gone', email: 'gone@example.org', first_name: 'Gone', erased: true },
            { ref: 'old', email: 'old@example.org', first_name: 'Ann', last_name: 'Archived', archived: true },
          ],
        },
        {
          ...account('other', { keys: [{ ref: 'main', scopes: ['contacts:read'] }] }),
          contacts: [
            { ref: 'theirs', email: 'ann.lee@example.org', first_name: 'Ann', last_name: 'Lee', lifecycle_stage: 'lead' },
            // The same first 32 characters (what the search index keeps of a word), different after.
            { ref: 'long1', email: 'w1@long.example', last_name: 'Wolfeschlegelsteinhausenbergerdorff' },
            { ref: 'long2', email: 'w2@long.example', last_name: 'Wolfeschlegelsteinhausenbergerdoxxx' },
          ],
        },
        account('pager', { keys: [{ ref: 'main', scopes: ['contacts:read'] }] }),
        {
          ...account('lapsed', { subscription: 'lapsed', keys: [{ ref: 'main', scopes: ['contacts:read', 'contacts:write'] }] }),
          contacts: [{ ref: 'kim', email: 'kim@example.org' }],
        },
      ],
    },
    { erasureSecret: erasure.secret },
  );
  s = seeded.accounts;
  acme = s.acme;
  c = acme.contacts;
  await setUpdated(c.liu, BASE);
  await setUpdated(c.ann, BASE - MIN);
  await setUpdated(c.jose, BASE - 2 * MIN);
  await setUpdated(c.bob, BASE - 3 * MIN);
  await insertPager(s.pager.id);
});
afterAll(() => t?.close());

describe('the Contact shape', () => {
  it('GET /contacts/{id} has exactly the docs/architecture.md §12.9 fields, with their values', async () => {
    const res = await get(acme.keys.main, `/v1/contacts/${c.ann}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(KEYS);
    expect(body).toEqual({
      id: c.ann,
      email: 'Ann.Lee@Example.org',
      first_name: 'Ann-Marie',
      last_name: 'Lee',
      phone: '+1 555 0100',
      lifecycle_stage: 'lead',
      do_not_contact: false,
      email_opt_out: true,
      sms_consent: 'granted',
      tags: ['newsletter', 'vip'],
      assignee: acme.users.adam,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: new Date(BASE - MIN).toISOString(),
    });
  });

  it('fields a contact does not have are null (declared nullable, never dropped), tags an empty array', async () => {
    const body = (await get(acme.keys.main, `/v1/contacts/${c.liu}`)).json();
    expect(Object.keys(body).sort()).toEqual(KEYS);
    expect(body).toMatchObject({
      last_name: null, phone: null, lifecycle_stage: null, assignee: null, tags: [], do_not_contact: false, email_opt_out: false, sms_consent: 'none',
    });
  });

  it('the list answers the same Contact as GET for each one', async () => {
    const p = await page(acme.keys.main, '');
    expect(p.data).toHaveLength(4);
    for (const listed of p.data) {
      expect(listed.id).toMatch(UUID_RE);
      expect(listed.created_at).toMatch(ISO_MS);
      expect((await get(acme.keys.main, `/v1/contacts/${listed.id}`)).json()).toEqual(listed);
    }
  });
});

describe('order and filters', () => {
  it('most recently changed first; archived and erased contacts are never listed', async () => {
    expect(await list('')).toEqual([c.liu, c.ann, c.jose, c.bob]);
    expect(await list('?limit=100')).not.toContain(c.old);
    expect(await list('?limit=100')).not.toContain(c.gone);
  });

  it.each([
    ['ann', ['ann']],
    ['ANN', ['ann']],
    ['an', ['ann']],
    ['marie', ['ann']],
    ['ann lee', ['ann']],
    ['lee ann', ['ann']],
    ['  Lee,   ann-m ', ['ann']],
    ['ann stone', []],
    ['example', ['liu', 'ann', 'jose', 'bob']],
    ['example org', ['liu', 'ann']],
    ['ann.lee@example', ['ann']],
    ['stone.example', ['bob']],
    ['jos', ['jose']],
    ['müller', ['jose']],
    ['MÜLL', ['jose']],
    ['nobody', []],
    ['archived', []],
    ['gone', []],
  ])('q=%s (every word must begin a word of the name or email, ignoring case)', async (q, expectedRefs) => {
    expect(await list(`?q=${encodeURIComponent(q)}`)).toEqual(expectedRefs.map((r) => c[r]));
  });

  it('q words longer than 32 characters are matched in full; one letter is a prefix too', async () => {
    const k = s.other.keys.main;
    const { long1, long2 } = s.other.contacts;
    expect(await list('?q=WOLFESCHLEGELSTEINHAUSENBERGERDORF', k)).toEqual([long1]);
    expect(await list('?q=wolfeschlegelsteinhausenbergerdox', k)).toEqual([long2]);
    expect((await list('?q=wolfeschlegelsteinhausenbergerdo', k)).sort()).toEqual([long1, long2].sort());
    expect((await list('?q=w%20long', k)).sort()).toEqual([long1, long2].sort());
  });

  it('email matches exactly after trimming and lower-casing; an archived or erased address matches nothing', async () => {
    expect(await list(`?email=${encodeURIComponent('  ANN.LEE@example.ORG ')}`)).toEqual([c.ann]);
    expect(await list('?email=ann.lee@example.or')).toEqual([]);
    expect(await list('?email=old@example.org')).toEqual([]);
    expect(await list('?email=gone@example.org')).toEqual([]);
    expect(await list('?email=not-an-address')).toEqual([]);
  });

  it('lifecycle_stage', async () => {
    expect(await list('?lifecycle_stage=lead')).toEqual([c.ann, c.jose]);
    expect(await list('?lifecycle_stage=customer')).toEqual([c.bob]);
    expect(await list('?lifecycle_stage=evangelist')).toEqual([]);
  });

  it('changed_since is inclusive and accepts any offset', async () => {
    expect(await list(`?changed_since=${new Date(BASE - MIN).toISOString()}`)).toEqual([c.liu, c.ann]);
    expect(await list(`?changed_since=${new Date(BASE - MIN + 1).toISOString()}`)).toEqual([c.liu]);
    expect(await list(`?changed_since=${encodeURIComponent('2026-03-01T13:58:00.123+02:00')}`)).toEqual([c.liu, c.ann, c.jose]);
    expect(await list('?changed_since=2030-01-01T00:00:00Z')).toEqual([]);
  });

  it('filters combine (all must hold)', async () => {
    expect(await list('?q=example&lifecycle_stage=lead')).toEqual([c.ann, c.jose]);
    expect(await list(`?q=example&lifecycle_stage=lead&changed_since=${new Date(BASE - MIN).toISOString()}`)).toEqual([c.ann]);
    expect(await list('?email=bob@stone.example&lifecycle_stage=lead')).toEqual([]);
  });
});

describe('refusals', () => {
  it.each([
    ['lifecycle_stage=prospect', 'lifecycle_stage'],
    ['changed_since=yesterday', 'changed_since'],
    ['changed_since=2026-03-01', 'changed_since'],
    ['changed_since=2026-02-30T00:00:00Z', 'changed_since'],
    ['q=', 'q'],
    ['q=%20%40%20-', 'q'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['email=', 'email'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
  ])('%s → 400 invalid_parameter naming it', async (qs, param) => {
    expectError(await get(acme.keys.main, `/v1/contacts?${qs}`), 400, 'invalid_request', 'invalid_parameter', param);
  });

  it('an unknown query parameter → 400 unknown_parameter', async () => {
    expectError(await get(acme.keys.main, '/v1/contacts?stage=lead'), 400, 'invalid_request', 'unknown_parameter', 'stage');
    expectError(await get(acme.keys.main, `/v1/contacts/${c.ann}?fields=email`), 400, 'invalid_request', 'unknown_parameter', 'fields');
  });

  it('a malformed id → 400 invalid_id; a forged cursor → 400 invalid_cursor', async () => {
    expectError(await get(acme.keys.main, '/v1/contacts/not-a-uuid'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await get(acme.keys.main, '/v1/contacts?cursor=abc.def'), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

describe('pagination', () => {
  it('a walk over 60 contacts with limit 7: each exactly once, in order, ties on updated_at broken by id', async () => {
    const pages = await walk(s.pager.keys.main, 'limit=7');
    expect(pages).toHaveLength(9);
    for (const p of pages.slice(0, -1)) expect(p).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    const all = pages.flatMap(ids);
    expect(new Set(all).size).toBe(60);
    expect(all).toEqual(await expected(s.pager.id));
  });

  it.each([
    ['lifecycle_stage=lead', 'lifecycle_stage = $2', ['lead'], 20],
    ['q=pat', "first_name in ('Pat', 'Patricia')", [], 40],
    ['q=patricia%20north', "first_name = 'Patricia' and email like '%north%'", [], 10],
    [`changed_since=${new Date(BASE - 20_000).toISOString()}`, 'updated_at >= $2', [new Date(BASE - 20_000)], 42],
    [`q=south&lifecycle_stage=customer&changed_since=${new Date(BASE - 25_000).toISOString()}`,
      "email like '%south%' and lifecycle_stage = 'customer' and updated_at >= $2", [new Date(BASE - 25_000)], 9],
  ])('a filtered walk (%s) with limit 7: no duplicate, no gap', async (qs, where, params, count) => {
    const all = (await walk(s.pager.keys.main, `limit=7&${qs}`)).flatMap(ids);
    expect(all).toHaveLength(count);
    expect(new Set(all).size).toBe(count);
    expect(all).toEqual(await expected(s.pager.id, where, params));
  });

  it('a cursor is bound to its filters, its account and this endpoint → 400 invalid_cursor elsewhere', async () => {
    const first = await page(s.pager.keys.main, '?limit=5&lifecycle_stage=lead');
    const cursor = encodeURIComponent(first.next_cursor!);
    for (const qs of [`lifecycle_stage=customer`, '', 'q=pat', `lifecycle_stage=lead&q=pat`]) {
      expectError(await get(s.pager.keys.main, `/v1/contacts?limit=5&${qs}&cursor=${cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    }
    expectError(await get(acme.keys.main, `/v1/contacts?limit=5&lifecycle_stage=lead&cursor=${cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    // the right filters take it
    expect((await page(s.pager.keys.main, `?limit=5&lifecycle_stage=lead&cursor=${cursor}`)).data).toHaveLength(5);
    const q1 = await page(s.pager.keys.main, '?limit=2&q=pat');
    expectError(await get(s.pager.keys.main, `/v1/contacts?limit=2&q=sam&cursor=${encodeURIComponent(q1.next_cursor!)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

describe('isolation and access', () => {
  it('archived, erased, other accounts\' and unknown ids all answer the same 404 resource_not_found', async () => {
    const answers = [];
    for (const id of [c.old, c.gone, s.other.contacts.theirs, uuidv7()]) {
      const res = await get(acme.keys.main, `/v1/contacts/${id}`);
      const { request_id: _r, ...e } = expectError(res, 404, 'not_found', 'resource_not_found');
      expect(res.body).not.toContain(id);
      answers.push(e);
    }
    for (const e of answers) expect(e).toEqual(answers[0]);
    expect((await get(s.other.keys.main, `/v1/contacts/${s.other.contacts.theirs}`)).statusCode).toBe(200);
  });

  it("never lists another account's contacts, whatever the filter", async () => {
    for (const qs of ['?q=ann%20lee', '?email=ann.lee@example.org', '?lifecycle_stage=lead', '?limit=100']) {
      expect(await list(qs)).not.toContain(s.other.contacts.theirs);
    }
    expect(await list('?q=ann', s.other.keys.main)).toEqual([s.other.contacts.theirs]);
  });

  it('a key without contacts:read → 403 insufficient_scope naming it (contacts:write does not imply it)', async () => {
    for (const url of ['/v1/contacts', `/v1/contacts/${c.ann}`]) {
      const e = expectError(await get(acme.keys.wf, url), 403, 'permission', 'insufficient_scope');
      expect(e.message).toContain('contacts:read');
    }
  });

  it('reads still work while the subscription is inactive', async () => {
    expect(await list('', s.lapsed.keys.main)).toEqual([s.lapsed.contacts.kim]);
    expect((await get(s.lapsed.keys.main, `/v1/contacts/${s.lapsed.contacts.kim}`)).statusCode).toBe(200);
  });
});
