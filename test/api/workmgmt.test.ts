// Work management lists: GET /v1/workmgmt/projects, …/{project_id}/items (every filter) and
// …/{project_id}/sprints (totals, review only once finished). Order, keyset pagination (no
// duplicate, no gap, cursors bound to project and filters), refusals, isolation and scope.
// The item detail, key forms and "reading writes nothing" are in workmgmt-item.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed, walkPages } from '../http/fixtures.js';

const ITEM_KEYS = [
  'assignee', 'created_at', 'due_date', 'epic_key', 'key', 'labels', 'points', 'sprint_id', 'start_date', 'status', 'title',
  'type', 'updated_at',
];

const acmeFixture = () => ({
  ...account('acme', { keys: [{ ref: 'main', scopes: ['workmgmt:read'] }, { ref: 'noscope', scopes: ['content:read', 'usage:read'] }] }),
  users: [
    { ref: 'owner', email: 'owner@acme.example', role: 'owner' },
    { ref: 'olivia', email: 'olivia@acme.example', role: 'member', name: 'Olivia Lee' },
  ],
  projects: [
    { ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' },
    { ref: 'blog', name: 'Blog' },
    { ref: 'app', name: 'App', workmgmt_prefix: 'APP' },
  ],
  workmgmt: {
    site: {
      previous_prefixes: ['SITE', 'W2'],
      sprints: [
        { ref: 's1', name: 'Sprint 1', state: 'finished', start_date: '2026-10-05', end_date: '2026-10-16', review: { summary: 'Shipped pricing.', went_well: ['pairing'], score: 4 } },
        // Written before the end: not shown until the sprint is finished.
        { ref: 's2', name: 'Sprint 2', state: 'active', start_date: '2026-10-19', end_date: '2026-10-30', review: { summary: 'draft' } },
        { ref: 's3', name: 'Sprint 3', state: 'planned' },
      ],
      items: [
        { key: 'WEB-1', type: 'epic', title: 'Pricing', status: 'done', sprint: 's1' },
        {
          key: 'WEB-2', type: 'story', title: 'Pricing page', status: 'in_progress', sprint: 's2', epic_key: 'WEB-1', labels: ['web', 'ux'],
          assignee: 'olivia', points: 3, start_date: '2026-10-19', due_date: '2026-10-28', description: 'Build it: 100% of plans, under_score.',
        },
        { key: 'WEB-3', type: 'bug', title: 'Checkout fails on Safari', sprint: 's2', epic_key: 'WEB-1', labels: ['web'], assignee: 'owner', points: 2 },
        { key: 'WEB-4', type: 'task', title: 'Write copy', status: 'done', sprint: 's1', labels: ['copy'], points: 1, description: 'Words for the PRICING table' },
        { key: 'WEB-5', type: 'epic', title: 'Blog relaunch' },
        { key: 'WEB-6', type: 'task', title: 'Pick a theme', status: 'in_review', sprint: 's2', epic_key: 'WEB-5', assignee: 'olivia' },
        { key: 'WEB-8', type: 'story', title: 'Plan page', status: 'done', sprint: 's2', points: 8, labels: ['Web'] },
      ],
    },
    app: { sprints: [{ ref: 'a1', name: 'App sprint', state: 'active' }], items: [{ key: 'APP-1', type: 'task', title: 'Login', sprint: 'a1' }] },
  },
});

const otherFixture = () => ({
  ...account('other', { keys: [{ ref: 'main', scopes: ['workmgmt:read'] }] }),
  projects: [{ ref: 'op', name: 'Their site', workmgmt_prefix: 'WEB' }],
  workmgmt: {
    op: {
      sprints: [{ ref: 'os', name: 'Their sprint', state: 'finished', review: { summary: 'theirs' } }],
      items: [{ key: 'WEB-1', type: 'epic', title: 'Their epic' }, { key: 'WEB-2', type: 'story', title: 'Pricing', sprint: 'os', epic_key: 'WEB-1', labels: ['web'] }],
    },
  },
});

/** 60 items (story, task, bug in turn; 21 of them in three sprints), 9 sprints, 12 projects of which 8 opened the area. */
const pagerFixture = () => ({
  ...account('pager', { keys: [{ ref: 'main', scopes: ['workmgmt:read'] }] }),
  projects: Array.from({ length: 12 }, (_, i) => ({ ref: `p${i}`, name: `Project ${i}`, ...(i % 3 === 2 ? {} : { workmgmt_prefix: `PG${i}` }) })),
  workmgmt: {
    p0: {
      sprints: Array.from({ length: 9 }, (_, i) => ({ ref: `ps${i}`, name: `Sprint ${i}`, state: 'finished' })),
      items: Array.from({ length: 60 }, (_, i) => ({
        key: `PG0-${i + 1}`, type: ['story', 'task', 'bug'][i % 3], title: `Item ${i + 1}`,
        ...(i % 9 < 3 ? { sprint: `ps${i % 9}`, points: i % 5, status: i % 2 ? 'done' : 'todo' } : {}),
      })),
    },
  },
});

interface Page<T = Record<string, any>> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let K: string;
const BASE = Date.parse('2026-10-20T12:00:00.123Z');
const MIN = 60_000;

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
async function page(key: string, url: string): Promise<Page> {
  const res = await get(key, url);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
}
const itemsUrl = (projectId: string, qs = '') => `/v1/workmgmt/projects/${projectId}/items${qs ? `?${qs}` : ''}`;
const keysOf = (p: Page) => p.data.map((i) => i.key as string);

const walk = (key: string, url: string): Promise<Page[]> => walkPages((u) => page(key, u), url);

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, acmeFixture(), otherFixture(), pagerFixture());
  acme = s.acme;
  K = acme.keys.main;
  // WEB-n changed n minutes after BASE; the app project is newer than the site.
  await t.db.query(
    `update wm_items set updated_at = $2::timestamptz + number * interval '1 minute' where account_id = $1 and project_id = $3`,
    [acme.id, new Date(BASE), acme.projects.site],
  );
  await t.db.query(`update projects set created_at = created_at - interval '1 day' where id = $1`, [acme.projects.site]);
});
afterAll(() => t?.close());

describe('GET /workmgmt/projects', () => {
  it('lists the projects that opened the area, newest first, with current and previous prefixes', async () => {
    const p = await page(K, '/v1/workmgmt/projects');
    expect(p).toEqual({
      data: [
        { project_id: acme.projects.app, name: 'App', key_prefix: 'APP', previous_prefixes: [] },
        { project_id: acme.projects.site, name: 'Website', key_prefix: 'WEB', previous_prefixes: ['SITE', 'W2'] },
      ],
      has_more: false,
      next_cursor: null,
    });
  });

  it('pages through 8 of 12 projects with limit 3: each once, in order', async () => {
    const pages = await walk(s.pager.keys.main, '/v1/workmgmt/projects?limit=3');
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 2]);
    const rows = await t.db.query<{ id: string }>(
      'select id from projects where account_id = $1 and wm_prefix is not null order by created_at desc, id desc',
      [s.pager.id],
    );
    expect(pages.flatMap((p) => p.data.map((x) => x.project_id))).toEqual(rows.map((r) => r.id));
    expect(rows).toHaveLength(8);
  });
});

describe('GET /workmgmt/projects/{project_id}/items', () => {
  it('the item shape: exact fields, dates as YYYY-MM-DD, nulls declared, assignee {id, name}', async () => {
    const p = await page(K, itemsUrl(acme.projects.site));
    for (const i of p.data) {
      expect(Object.keys(i).sort()).toEqual(ITEM_KEYS);
      expect(i.created_at).toMatch(ISO_MS);
      expect(i.updated_at).toMatch(ISO_MS);
    }
    const [one, two, three] = p.data;
    expect(two).toEqual({
      key: 'WEB-2', type: 'story', title: 'Pricing page', status: 'in_progress', sprint_id: acme.sprints.s2, epic_key: 'WEB-1',
      labels: ['web', 'ux'], assignee: { id: acme.users.olivia, name: 'Olivia Lee' }, start_date: '2026-10-19', due_date: '2026-10-28',
      points: 3, created_at: two.created_at, updated_at: new Date(BASE + 2 * MIN).toISOString(),
    });
    expect(one).toMatchObject({ key: 'WEB-1', epic_key: null, labels: [], assignee: null, start_date: null, due_date: null, points: null });
    // A user without a name is named by their email.
    expect(three.assignee).toEqual({ id: acme.users.owner, name: 'owner@acme.example' });
    expect(three.status).toBe('todo');
  });

  it('lists in key order (number ascending), gaps and all', async () => {
    expect(keysOf(await page(K, itemsUrl(acme.projects.site)))).toEqual(['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4', 'WEB-5', 'WEB-6', 'WEB-8']);
    expect(keysOf(await page(K, itemsUrl(acme.projects.app)))).toEqual(['APP-1']);
  });

  const minutes = (n: number) => new Date(BASE + n * MIN).toISOString();
  it.each([
    ['status=done', [1, 4, 8]],
    ['status=todo', [3, 5]],
    ['status=in_review', [6]],
    ['type=epic', [1, 5]],
    ['type=story', [2, 8]],
    ['sprint_id=s2', [2, 3, 6, 8]],
    ['sprint_id=s3', []],
    ['assignee=olivia', [2, 6]],
    ['assignee=none', [1, 4, 5, 8]],
    ['epic=WEB-1', [2, 3]],
    ['epic=SITE-1', [2, 3]],
    ['epic=W2-5', [6]],
    ['label=web', [2, 3]],
    ['label=Web', [8]],
    ['q=pricing', [1, 2, 4]],
    ['q=PRICING%20%20page', [2]],
    ['q=100%25', [2]],
    ['q=_', [2]],
    ['q=nowhere', []],
    [`changed_since=${minutes(4)}`, [4, 5, 6, 8]],
    [`changed_since=${encodeURIComponent('2026-10-20T13:05:00.123+01:00')}`, [5, 6, 8]],
    ['changed_since=0001-01-01T00:00:00Z', [1, 2, 3, 4, 5, 6, 8]],
    ['changed_since=9999-12-31T23:59:59.999Z', []],
    ['status=done&sprint_id=s1', [1, 4]],
    ['type=task&assignee=none', [4]],
    ['epic=WEB-1&assignee=olivia&label=ux&q=page', [2]],
  ] as const)('%s', async (qs, expected) => {
    const real = qs.replace(/sprint_id=(s\d)/, (_, r) => `sprint_id=${acme.sprints[r]}`).replace('assignee=olivia', `assignee=${acme.users.olivia}`);
    const p = await page(K, itemsUrl(acme.projects.site, real));
    expect(keysOf(p)).toEqual(expected.map((n) => `WEB-${n}`));
    expect(p).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('a well-formed sprint, assignee or epic that names nothing here gives an empty list', async () => {
    const empty = { data: [], has_more: false, next_cursor: null };
    for (const qs of [
      `sprint_id=${uuidv7()}`,
      `sprint_id=${acme.sprints.a1}`, // another project's sprint
      `sprint_id=${s.other.sprints.os}`, // another account's sprint
      `assignee=${uuidv7()}`,
      `assignee=${s.other.users.owner}`,
      'epic=FOO-1', // not a prefix of this project
      'epic=APP-1',
      'epic=WEB-99',
      'epic=WEB-4294967296',
      'epic=WEB-2', // not an epic
    ]) {
      expect(await page(K, itemsUrl(acme.projects.site, qs)), qs).toEqual(empty);
    }
  });

  it('refuses bad filters naming the parameter', async () => {
    const u = (qs: string) => get(K, itemsUrl(acme.projects.site, qs));
    const bad = 'invalid_request';
    for (const [qs, code, param] of [
      ['status=open', 'invalid_parameter', 'status'],
      ['type=feature', 'invalid_parameter', 'type'],
      ['sprint_id=s2', 'invalid_id', 'sprint_id'],
      ['assignee=olivia', 'invalid_id', 'assignee'],
      ['assignee=NONE', 'invalid_id', 'assignee'],
      ...['web-1', 'WEB-01', 'WEB', 'WEB-', '1', 'WEB-1-2', 'ABCDEFGHIJK-1', 'WEB-12345678901'].map((e) => [`epic=${e}`, 'invalid_parameter', 'epic']),
      ['label=', 'invalid_parameter', 'label'],
      ['q=', 'invalid_parameter', 'q'],
      ['changed_since=2026-10-20', 'invalid_parameter', 'changed_since'],
      ['changed_since=2026-10-20T12:00:00', 'invalid_parameter', 'changed_since'],
      ['changed_since=2016-12-31T23:59:60Z', 'invalid_parameter', 'changed_since'],
      ['changed_since=0000-01-01T00:00:00Z', 'invalid_parameter', 'changed_since'],
      [`changed_since=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`, 'invalid_parameter', 'changed_since'],
      ['status=todo&status=done', 'invalid_parameter', 'status'],
      ['limit=101', 'invalid_parameter', 'limit'],
      ['sort=title', 'unknown_parameter', 'sort'],
      ['cursor=garbage', 'invalid_cursor', 'cursor'],
    ] as const) {
      expectError(await u(qs), 400, bad, code, param);
    }
    expectError(await get(K, itemsUrl('site')), 400, bad, 'invalid_id', 'project_id');
    // A bad value is 400 before the project is looked up, as the schema's own checks are.
    expectError(await get(K, itemsUrl(uuidv7(), 'changed_since=2016-12-31T23:59:60Z')), 400, bad, 'invalid_parameter', 'changed_since');
    expectError(await get(K, itemsUrl(acme.projects.blog, 'epic=web-1')), 400, bad, 'invalid_parameter', 'epic');
  });

  it('pages with a filter: 20 tasks of 60 items, limit 7, each once and in key order', async () => {
    const url = itemsUrl(s.pager.projects.p0, 'type=task&limit=7');
    const pages = await walk(s.pager.keys.main, url);
    expect(pages.map((p) => p.data.length)).toEqual([7, 7, 6]);
    pages.slice(0, -1).forEach((p) => expect(p.has_more).toBe(true));
    expect(pages[2]).toMatchObject({ has_more: false, next_cursor: null });
    expect(pages.flatMap(keysOf)).toEqual(Array.from({ length: 20 }, (_, i) => `PG0-${3 * i + 2}`));
    // Unfiltered: 25 by default, 60 in all.
    const first = await page(s.pager.keys.main, itemsUrl(s.pager.projects.p0));
    expect(first.data).toHaveLength(25);
    expect((await walk(s.pager.keys.main, itemsUrl(s.pager.projects.p0, 'limit=100'))).flatMap(keysOf)).toHaveLength(60);
  });

  it('a cursor works only with the same project and filters', async () => {
    const k = s.pager.keys.main;
    const { next_cursor } = await page(k, itemsUrl(s.pager.projects.p0, 'type=task&limit=7'));
    const c = encodeURIComponent(next_cursor!);
    expect((await page(k, itemsUrl(s.pager.projects.p0, `type=task&limit=3&cursor=${c}`))).data[0].key).toBe('PG0-23');
    expectError(await get(k, itemsUrl(s.pager.projects.p0, `type=bug&cursor=${c}`)), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(k, itemsUrl(s.pager.projects.p0, `cursor=${c}`)), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(k, itemsUrl(s.pager.projects.p1, `type=task&cursor=${c}`)), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(k, `/v1/workmgmt/projects/${s.pager.projects.p0}/sprints?cursor=${c}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

describe('GET /workmgmt/projects/{project_id}/sprints', () => {
  it('newest first, with totals from the items now in each sprint; a review only once finished', async () => {
    const p = await page(K, `/v1/workmgmt/projects/${acme.projects.site}/sprints`);
    expect(p).toEqual({
      data: [
        { id: acme.sprints.s3, name: 'Sprint 3', state: 'planned', start_date: null, end_date: null, totals: { items: 0, done: 0, points: 0, points_done: 0 }, review: null },
        { id: acme.sprints.s2, name: 'Sprint 2', state: 'active', start_date: '2026-10-19', end_date: '2026-10-30', totals: { items: 4, done: 1, points: 13, points_done: 8 }, review: null },
        {
          id: acme.sprints.s1, name: 'Sprint 1', state: 'finished', start_date: '2026-10-05', end_date: '2026-10-16',
          totals: { items: 2, done: 2, points: 1, points_done: 1 }, review: { summary: 'Shipped pricing.', went_well: ['pairing'], score: 4 },
        },
      ],
      has_more: false,
      next_cursor: null,
    });
    expect((await page(K, `/v1/workmgmt/projects/${acme.projects.app}/sprints`)).data.map((x) => x.name)).toEqual(['App sprint']);
  });

  it('pages through 9 sprints with limit 4; totals match the items', async () => {
    const pages = await walk(s.pager.keys.main, `/v1/workmgmt/projects/${s.pager.projects.p0}/sprints?limit=4`);
    expect(pages.map((p) => p.data.length)).toEqual([4, 4, 1]);
    const sprints = pages.flatMap((p) => p.data);
    expect(sprints.map((x) => x.name)).toEqual(Array.from({ length: 9 }, (_, i) => `Sprint ${8 - i}`));
    for (const [n, sp] of sprints.map((x, i) => [8 - i, x] as const)) {
      // The fixture put item i (0-based) in sprint i % 9 when i % 9 < 3, with points i % 5, done when i is odd.
      const mine = Array.from({ length: 60 }, (_, i) => i).filter((i) => i % 9 === n && n < 3);
      const done = mine.filter((i) => i % 2);
      const sum = (xs: number[]) => xs.reduce((a, i) => a + (i % 5), 0);
      expect(sp.totals, sp.name).toEqual({ items: mine.length, done: done.length, points: sum(mine), points_done: sum(done) });
    }
    expect(sprints[8].totals.items).toBe(7);
  });
});

describe('not found, isolation and scope', () => {
  const routes = (projectId: string) => [itemsUrl(projectId), `/v1/workmgmt/projects/${projectId}/sprints`, `${itemsUrl(projectId)}/WEB-1`];

  it('a project without the area, an unknown one and another account\'s all answer the same 404', async () => {
    const bodies = new Set<string>();
    for (const projectId of [acme.projects.blog, uuidv7(), s.other.projects.op]) {
      for (const url of routes(projectId)) {
        const { request_id: _r, ...e } = expectError(await get(K, url), 404, 'not_found', 'resource_not_found');
        bodies.add(JSON.stringify(e));
      }
    }
    expect(bodies.size).toBe(1);
    // The owner of that project does read it.
    expect(keysOf(await page(s.other.keys.main, itemsUrl(s.other.projects.op)))).toEqual(['WEB-1', 'WEB-2']);
  });

  it("never lists another account's projects, items or sprints", async () => {
    const listed = (await page(K, '/v1/workmgmt/projects?limit=100')).data.map((p) => p.project_id);
    expect(listed).not.toContain(s.other.projects.op);
    const titles = (await page(K, itemsUrl(acme.projects.site, 'q=their&limit=100'))).data;
    expect(titles).toEqual([]);
  });

  it('a key without workmgmt:read → 403 insufficient_scope naming it, on every route', async () => {
    for (const url of ['/v1/workmgmt/projects', ...routes(acme.projects.site)]) {
      const e = expectError(await get(acme.keys.noscope, url), 403, 'permission', 'insufficient_scope');
      expect(e.message).toContain('workmgmt:read');
    }
  });

  it('GET only: other methods → 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: itemsUrl(acme.projects.site), headers: bearer(K), payload: {} });
    expectError(res, 405, 'invalid_request', 'method_not_allowed');
    expect(res.headers.allow).toBe('GET');
  });
});
