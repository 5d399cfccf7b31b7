// GET /v1/projects and GET /v1/projects/{id}: the Project shape exactly (no settings, no
// work-management fields), newest first, keyset pagination (no duplicate, no gap, ties broken by
// id), isolation between accounts, scope and the refusals of the request pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed, UUID_RE, walkPages } from '../http/fixtures.js';

interface Project {
  id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}
interface Page {
  data: Project[];
  has_more: boolean;
  next_cursor: string | null;
}

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
const BASE = Date.parse('2026-03-01T12:00:00.123Z');
const MIN = 60_000;
const READ = { ref: 'main', scopes: ['content:read' as const] };

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
async function page(key: string, qs = ''): Promise<Page> {
  const res = await get(key, `/v1/projects${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
}
const ids = (p: Page) => p.data.map((x) => x.id);

const walk = (key: string, qs: string): Promise<Page[]> => walkPages((q) => page(key, q), `?${qs}`);

async function insertProjects(accountId: string, rows: Array<{ id: string; createdAt: number }>) {
  const params: unknown[] = [];
  const values = rows.map((r, i) => {
    params.push(accountId, r.id, `p ${i}`, new Date(r.createdAt));
    return `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4}, $${i * 4 + 4})`;
  });
  await t.db.query(`insert into projects (account_id, id, name, created_at, updated_at) values ${values.join(', ')}`, params);
}

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    {
      ...account('acme', { tier: 'enterprise', keys: [READ, { ref: 'wf', scopes: ['workflows:read', 'content:write'] }] }),
      projects: [
        {
          ref: 'site',
          name: 'Website',
          description: 'Marketing site',
          workmgmt_prefix: 'WEB',
          settings: { sms_consent_required: false, max_automations_per_contact: 2 },
        },
        { ref: 'blog', name: 'Blog' },
        { ref: 'docs', name: 'Docs', description: 'Handbook' },
      ],
    },
    { ...account('other', { keys: [READ] }), projects: [{ ref: 'secret', name: 'Secret' }] },
    account('pager', { tier: 'enterprise', keys: [READ] }),
    account('ties', { tier: 'enterprise', keys: [READ] }),
    account('empty', { keys: [READ] }),
    account('lapsed', { subscription: 'lapsed', projects: ['p'], keys: [READ] }),
  );
  acme = s.acme;
  const p = acme.projects;
  await t.db.query('update projects set created_at = $1, updated_at = $2 where id = $3', [new Date(BASE - 2 * MIN), new Date(BASE + MIN), p.site]);
  await t.db.query('update projects set created_at = $1, updated_at = $1 where id = $2', [new Date(BASE), p.blog]);
  await t.db.query('update projects set created_at = $1, updated_at = $1 where id = $2', [new Date(BASE - MIN), p.docs]);
  await insertProjects(s.pager.id, Array.from({ length: 60 }, (_, i) => ({ id: uuidv7(), createdAt: BASE - i * 1000 })));
  await insertProjects(s.ties.id, Array.from({ length: 30 }, () => ({ id: uuidv7(), createdAt: BASE })));
});
afterAll(() => t?.close());

describe('the Project shape', () => {
  it('has exactly id, name, description, created_at, updated_at: no settings, no work-management fields', async () => {
    const p = await page(acme.keys.main);
    expect(p.data).toHaveLength(3);
    for (const x of p.data) {
      expect(Object.keys(x).sort()).toEqual(['created_at', 'description', 'id', 'name', 'updated_at']);
      expect(x.id).toMatch(UUID_RE);
      expect(x.created_at).toMatch(ISO_MS);
      expect(x.updated_at).toMatch(ISO_MS);
    }
    const site = p.data.find((x) => x.id === acme.projects.site)!;
    expect(site).toEqual({
      id: acme.projects.site,
      name: 'Website',
      description: 'Marketing site',
      created_at: '2026-03-01T11:58:00.123Z',
      updated_at: '2026-03-01T12:01:00.123Z',
    });
    expect(p.data.find((x) => x.id === acme.projects.blog)!.description).toBe('');
  });

  it('GET /projects/{id} answers the same Project as the list; an upper-case id finds it too', async () => {
    const listed = Object.fromEntries((await page(acme.keys.main)).data.map((x) => [x.id, x]));
    for (const id of Object.values(acme.projects)) {
      const res = await get(acme.keys.main, `/v1/projects/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(listed[id]);
    }
    const upper = await get(acme.keys.main, `/v1/projects/${acme.projects.site.toUpperCase()}`);
    expect(upper.json()).toEqual(listed[acme.projects.site]);
  });

  it('an account without projects lists none', async () => {
    expect(await page(s.empty.keys.main)).toEqual({ data: [], has_more: false, next_cursor: null });
  });
});

describe('order and pagination', () => {
  it('newest first by created_at (not updated_at)', async () => {
    expect(ids(await page(acme.keys.main))).toEqual([acme.projects.blog, acme.projects.docs, acme.projects.site]);
  });

  it('default limit 25; a walk with limit 7 sees every project once, in order', async () => {
    const first = await page(s.pager.keys.main);
    expect(first.data).toHaveLength(25);
    expect(first.has_more).toBe(true);
    const pages = await walk(s.pager.keys.main, 'limit=7');
    expect(pages.map((p) => p.data.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4]);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    const rows = await t.db.query<{ id: string }>('select id from projects where account_id = $1 order by created_at desc, id desc', [s.pager.id]);
    expect(pages.flatMap(ids)).toEqual(rows.map((r) => r.id));
  });

  it('a page ending exactly at the last project says has_more false', async () => {
    const pages = await walk(s.pager.keys.main, 'limit=30');
    expect(pages.map((p) => p.data.length)).toEqual([30, 30]);
    expect(pages[1]).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('many projects created at the same instant: no duplicate, no gap (ties broken by id, descending)', async () => {
    const seen = (await walk(s.ties.keys.main, 'limit=4')).flatMap(ids);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("a cursor is refused by another account's listing and by another endpoint", async () => {
    const c = encodeURIComponent((await page(s.pager.keys.main, '?limit=5')).next_cursor!);
    expect((await get(s.pager.keys.main, `/v1/projects?limit=5&cursor=${c}`)).statusCode).toBe(200);
    expectError(await get(s.ties.keys.main, `/v1/projects?cursor=${c}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(s.pager.keys.main, `/v1/projects?cursor=garbage`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

describe('isolation, scopes and refusals', () => {
  it("another account's project → 404 resource_not_found exactly like an unknown id, and is never listed", async () => {
    const foreign = await get(acme.keys.main, `/v1/projects/${s.other.projects.secret}`);
    const unknown = await get(acme.keys.main, `/v1/projects/${uuidv7()}`);
    const { request_id: _a, ...e1 } = expectError(foreign, 404, 'not_found', 'resource_not_found');
    const { request_id: _b, ...e2 } = expectError(unknown, 404, 'not_found', 'resource_not_found');
    expect(e1).toEqual(e2);
    expect(foreign.body).not.toContain(s.other.projects.secret);
    expect(ids(await page(acme.keys.main, '?limit=100'))).not.toContain(s.other.projects.secret);
    expect((await get(s.other.keys.main, `/v1/projects/${s.other.projects.secret}`)).statusCode).toBe(200);
  });

  it('a key without content:read → 403 insufficient_scope naming it', async () => {
    for (const url of ['/v1/projects', `/v1/projects/${acme.projects.site}`]) {
      const e = expectError(await get(acme.keys.wf, url), 403, 'permission', 'insufficient_scope');
      expect(e.message).toContain('content:read');
    }
  });

  it('reads still work while the subscription is inactive', async () => {
    expect(ids(await page(s.lapsed.keys.main))).toEqual([s.lapsed.projects.p]);
    expect((await get(s.lapsed.keys.main, `/v1/projects/${s.lapsed.projects.p}`)).statusCode).toBe(200);
  });

  it('unknown and invalid query parameters, invalid ids, other methods', async () => {
    const k = acme.keys.main;
    expectError(await get(k, '/v1/projects?sort=name'), 400, 'invalid_request', 'unknown_parameter', 'sort');
    expectError(await get(k, '/v1/projects?kind=page'), 400, 'invalid_request', 'unknown_parameter', 'kind');
    expectError(await get(k, `/v1/projects/${acme.projects.site}?expand=settings`), 400, 'invalid_request', 'unknown_parameter', 'expand');
    for (const v of ['0', '101', 'abc']) {
      expectError(await get(k, `/v1/projects?limit=${v}`), 400, 'invalid_request', 'invalid_parameter', 'limit');
    }
    expectError(await get(k, '/v1/projects/site'), 400, 'invalid_request', 'invalid_id', 'id');
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/projects/${acme.projects.site}`, headers: bearer(k) });
    expectError(del, 405, 'invalid_request', 'method_not_allowed');
    expect(del.headers.allow).toBe('GET');
  });
});
