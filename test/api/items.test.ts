// GET /v1/projects/{id}/items and GET /v1/items/{id}: the shape of every kind (list and detail),
// a page's text and html in detail only, order, the kind and updated_since filters, keyset
// pagination with cursors bound to the project and the filters, isolation between accounts,
// scope and the refusals of the request pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed, UUID_RE, walkPages } from '../http/fixtures.js';

type Item = Record<string, unknown> & { id: string; kind: string; updated_at: string };
interface Page {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

const COMMON = ['created_at', 'id', 'kind', 'project_id', 'title', 'updated_at'];
const KIND_KEYS: Record<string, string[]> = {
  page: [],
  file: ['content_type', 'filename', 'size_bytes'],
  dataset: ['columns', 'row_count'],
  image: ['alt', 'content_type', 'filename', 'height', 'size_bytes', 'width'],
  link: ['url'],
};
const KINDS = ['page', 'file', 'dataset', 'image', 'link'];

const SITE_ITEMS = [
  { ref: 'about', kind: 'page', title: 'About us', text: '# About us\n\nWe make <b>things</b>.<script>alert(1)</script>' },
  { ref: 'deck', kind: 'file', title: 'Sales deck', filename: 'deck.pdf', content_type: 'application/pdf', size_bytes: 482113 },
  { ref: 'notes', kind: 'file', title: 'Notes', filename: 'notes.bin' },
  { ref: 'leads', kind: 'dataset', title: 'Leads 2026', row_count: 1200, columns: ['email', 'company', 'score'] },
  { ref: 'logo', kind: 'image', title: 'Logo', filename: 'logo.png', content_type: 'image/png', size_bytes: 2048, width: 512, height: 256, alt: 'Acme logo' },
  { ref: 'icon', kind: 'image', title: 'Icon', width: 16, height: 16 },
  { ref: 'docs', kind: 'link', title: 'Docs', url: 'https://docs.acme.example/' },
];

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let it_: Record<string, string>;
const BASE = Date.parse('2026-03-01T12:00:00.123Z');
const MIN = 60_000;
const READ = { ref: 'main', scopes: ['content:read' as const] };

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
async function list(key: string, projectId: string, qs = ''): Promise<Page> {
  const res = await get(key, `/v1/projects/${projectId}/items${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(Object.keys(res.json()).sort()).toEqual(['data', 'has_more', 'next_cursor']);
  return res.json();
}
async function one(key: string, id: string): Promise<Item> {
  const res = await get(key, `/v1/items/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const ids = (p: Page) => p.data.map((x) => x.id);

const walk = (key: string, projectId: string, qs: string): Promise<Page[]> => walkPages((q) => list(key, projectId, q), `?${qs}`);

async function setUpdated(id: string, at: number) {
  await t.db.query('update content_items set updated_at = $1 where id = $2', [new Date(at), id]);
}

let big: string;
beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    {
      ...account('acme', { tier: 'enterprise', keys: [READ, { ref: 'wf', scopes: ['workflows:read', 'content:write'] }] }),
      projects: [
        { ref: 'site', name: 'Website', items: SITE_ITEMS },
        { ref: 'blog', name: 'Blog', items: [] },
      ],
    },
    { ...account('other', { keys: [READ] }), projects: [{ ref: 'secret', name: 'Secret', items: [{ ref: 'plan', kind: 'page', title: 'Plan', text: 'secret' }] }] },
    { ...account('pager', { tier: 'enterprise', keys: [READ] }), projects: [{ ref: 'big', name: 'Big' }, { ref: 'small', name: 'Small' }] },
    { ...account('lapsed', { subscription: 'lapsed', keys: [READ] }), projects: [{ ref: 'p', name: 'P', items: [{ ref: 'x', kind: 'link', title: 'X', url: 'https://x.example/' }] }] },
  );
  acme = s.acme;
  it_ = acme.items;
  // About is the most recently updated, then every other item a minute apart, in fixture order.
  const order = ['about', 'docs', 'leads', 'deck', 'logo', 'notes', 'icon'];
  for (const [i, ref] of order.entries()) await setUpdated(it_[ref], BASE - i * MIN);

  // 90 items in one project: kinds in turn, one second apart, some sharing an instant.
  big = s.pager.projects.big;
  const params: unknown[] = [];
  const values = Array.from({ length: 90 }, (_, i) => {
    const kind = KINDS[i % 5];
    const attrs = kind === 'link' ? { url: `https://x.example/${i}` } : kind === 'image' ? { width: 1, height: 1, alt: '' } : {};
    params.push(s.pager.id, uuidv7(), big, kind, `item ${i}`, JSON.stringify(attrs), new Date(BASE - Math.floor(i / 3) * 1000));
    const b = i * 7;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, $${b + 7})`;
  });
  await t.db.query(`insert into content_items (account_id, id, project_id, kind, title, attrs, updated_at) values ${values.join(', ')}`, params);
});
afterAll(() => t?.close());

describe('the item shapes', () => {
  it('in a list: the common fields and the kind\u2019s small fields, nothing of a page beyond the common fields', async () => {
    const p = await list(acme.keys.main, acme.projects.site);
    expect(p.data).toHaveLength(SITE_ITEMS.length);
    for (const x of p.data) {
      expect(Object.keys(x).sort(), x.kind).toEqual([...COMMON, ...KIND_KEYS[x.kind]].sort());
      expect(x.id).toMatch(UUID_RE);
      expect(x.project_id).toBe(acme.projects.site);
      expect(x.created_at).toMatch(ISO_MS);
      expect(x.updated_at).toMatch(ISO_MS);
    }
    const byId = Object.fromEntries(p.data.map((x) => [x.id, x]));
    const common = (ref: string, kind: string, title: string) => ({
      id: it_[ref],
      project_id: acme.projects.site,
      kind,
      title,
      created_at: byId[it_[ref]].created_at,
      updated_at: byId[it_[ref]].updated_at,
    });
    expect(byId[it_.about]).toEqual(common('about', 'page', 'About us'));
    expect(byId[it_.about].updated_at).toBe('2026-03-01T12:00:00.123Z');
    expect(byId[it_.deck]).toEqual({ ...common('deck', 'file', 'Sales deck'), filename: 'deck.pdf', content_type: 'application/pdf', size_bytes: 482113 });
    // the loader's defaults for a file given without type and size
    expect(byId[it_.notes]).toMatchObject({ filename: 'notes.bin', content_type: 'application/octet-stream', size_bytes: 0 });
    expect(byId[it_.leads]).toEqual({ ...common('leads', 'dataset', 'Leads 2026'), row_count: 1200, columns: ['email', 'company', 'score'] });
    expect(byId[it_.logo]).toEqual({
      ...common('logo', 'image', 'Logo'),
      width: 512,
      height: 256,
      alt: 'Acme logo',
      filename: 'logo.png',
      content_type: 'image/png',
      size_bytes: 2048,
    });
    expect(byId[it_.icon]).toMatchObject({ width: 16, height: 16, alt: '', filename: null, content_type: null, size_bytes: null });
    expect(byId[it_.docs]).toEqual({ ...common('docs', 'link', 'Docs'), url: 'https://docs.acme.example/' });
  });

  it('GET /items/{id}: every kind but page answers its list entry; nothing links to a file\u2019s bytes', async () => {
    const listed = Object.fromEntries((await list(acme.keys.main, acme.projects.site)).data.map((x) => [x.id, x]));
    for (const ref of ['deck', 'notes', 'leads', 'logo', 'icon', 'docs']) {
      const x = await one(acme.keys.main, it_[ref]);
      expect(x).toEqual(listed[it_[ref]]);
      if (x.kind !== 'link') expect(JSON.stringify(x)).not.toMatch(/https?:|download|\/v1\//);
    }
  });

  it('a page in detail adds text (its Markdown) and html, sanitised; a page seeded without html is rendered on read', async () => {
    const x = await one(acme.keys.main, it_.about);
    expect(Object.keys(x).sort()).toEqual([...COMMON, 'html', 'text'].sort());
    expect(x.text).toBe('# About us\n\nWe make <b>things</b>.<script>alert(1)</script>');
    expect(x.html).toBe('<h1>About us</h1>\n<p>We make <b>things</b>.</p>\n');
  });

  it('a stored html is answered as stored; internal attributes (an engine step\u2019s effect_key) never show', async () => {
    const id = uuidv7();
    await t.db.query(
      `insert into content_items (account_id, id, project_id, kind, title, text, html, attrs)
       values ($1, $2, $3, 'page', 'Digest', '# Digest', '<h1>Digest</h1>', '{"effect_key": "run-1:out"}')`,
      [acme.id, id, acme.projects.blog],
    );
    const x = await one(acme.keys.main, id);
    expect(x).toMatchObject({ kind: 'page', title: 'Digest', text: '# Digest', html: '<h1>Digest</h1>', project_id: acme.projects.blog });
    expect(JSON.stringify(x)).not.toContain('effect_key');
    const listed = (await list(acme.keys.main, acme.projects.blog)).data;
    expect(listed.map((i) => i.id)).toEqual([id]);
    expect(JSON.stringify(listed)).not.toContain('effect_key');
    await t.db.query('delete from content_items where id = $1', [id]);
  });
});

describe('order and filters', () => {
  it('most recently updated first', async () => {
    const refs = ['about', 'docs', 'leads', 'deck', 'logo', 'notes', 'icon'];
    expect(ids(await list(acme.keys.main, acme.projects.site))).toEqual(refs.map((r) => it_[r]));
  });

  it.each([
    ['kind=page', ['about']],
    ['kind=file', ['deck', 'notes']],
    ['kind=dataset', ['leads']],
    ['kind=image', ['logo', 'icon']],
    ['kind=link', ['docs']],
    ['updated_since=2026-03-01T11:57:00.123Z', ['about', 'docs', 'leads', 'deck']],
    ['updated_since=2026-03-01T11:57:00.124Z', ['about', 'docs', 'leads']],
    ['updated_since=2026-03-01T12:57:00.123%2B01:00', ['about', 'docs', 'leads', 'deck']],
    ['updated_since=2026-03-01T12:00:00.124Z', []],
    ['kind=file&updated_since=2026-03-01T11:50:00Z', ['deck', 'notes']],
    ['kind=file&updated_since=2026-03-01T11:56:00Z', ['deck']],
    ['kind=image&updated_since=2026-03-01T11:57:00Z', []],
  ] as const)('%s', async (qs, refs) => {
    const p = await list(acme.keys.main, acme.projects.site, `?${qs}`);
    expect(ids(p)).toEqual(refs.map((r) => it_[r]));
    expect(p).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('a project without items lists none', async () => {
    expect(await list(acme.keys.main, acme.projects.blog)).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it('bad filter values → 400 invalid_parameter naming the parameter', async () => {
    const url = (qs: string) => `/v1/projects/${acme.projects.site}/items?${qs}`;
    for (const v of ['bogus', 'Page', 'pages', '']) {
      expectError(await get(acme.keys.main, url(`kind=${v}`)), 400, 'invalid_request', 'invalid_parameter', 'kind');
    }
    for (const v of ['yesterday', '2026-03-01', '2026-13-01T00:00:00Z', '2026-03-01T12:00:00', '1700000000', '', '2016-12-31T23:59:60Z']) {
      expectError(await get(acme.keys.main, url(`updated_since=${encodeURIComponent(v)}`)), 400, 'invalid_request', 'invalid_parameter', 'updated_since');
    }
  });
});

describe('pagination', () => {
  const expected = async (kind?: string, since?: number) => {
    const rows = await t.db.query<{ id: string }>(
      `select id from content_items where account_id = $1 and project_id = $2
          and ($3::text is null or kind = $3) and ($4::timestamptz is null or updated_at >= $4)
        order by updated_at desc, id desc`,
      [s.pager.id, big, kind ?? null, since === undefined ? null : new Date(since)],
    );
    return rows.map((r) => r.id);
  };

  it('default limit 25; a walk with limit 7 sees every item once, in order, ties broken by id', async () => {
    const first = await list(s.pager.keys.main, big);
    expect(first.data).toHaveLength(25);
    expect(first.has_more).toBe(true);
    const pages = await walk(s.pager.keys.main, big, 'limit=7');
    expect(pages).toHaveLength(13);
    expect(pages.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    const seen = pages.flatMap(ids);
    expect(new Set(seen).size).toBe(90);
    expect(seen).toEqual(await expected());
  });

  it('walks with filters: kind, updated_since and both; no duplicate, no gap', async () => {
    const since = BASE - 20 * 1000;
    const sinceQs = `updated_since=${encodeURIComponent(new Date(since).toISOString())}`;
    for (const [qs, kind, at] of [
      ['kind=image', 'image', undefined],
      [sinceQs, undefined, since],
      [`kind=link&${sinceQs}`, 'link', since],
    ] as const) {
      const pages = await walk(s.pager.keys.main, big, `limit=4&${qs}`);
      const seen = pages.flatMap(ids);
      const want = await expected(kind, at);
      expect(want.length).toBeGreaterThan(4);
      expect(seen).toEqual(want);
      if (kind) expect(pages.flatMap((p) => p.data.map((x) => x.kind)).every((k) => k === kind)).toBe(true);
    }
  });

  it('a page ending exactly at the last item says has_more false', async () => {
    const pages = await walk(s.pager.keys.main, big, 'limit=45');
    expect(pages.map((p) => p.data.length)).toEqual([45, 45]);
    expect(pages[1]).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('a cursor is bound to its project and its filters', async () => {
    const k = s.pager.keys.main;
    const url = (project: string, qs: string) => `/v1/projects/${project}/items?${qs}`;
    const plain = encodeURIComponent((await list(k, big, '?limit=3')).next_cursor!);
    const images = encodeURIComponent((await list(k, big, '?limit=3&kind=image')).next_cursor!);
    expect((await get(k, url(big, `limit=3&cursor=${plain}`))).statusCode).toBe(200);
    expect((await get(k, url(big, `limit=3&kind=image&cursor=${images}`))).statusCode).toBe(200);
    const refused = [
      url(big, `kind=image&cursor=${plain}`),
      url(big, `updated_since=2026-01-01T00:00:00Z&cursor=${plain}`),
      url(big, `cursor=${images}`),
      url(big, `kind=file&cursor=${images}`),
      url(s.pager.projects.small, `cursor=${plain}`),
      url(big, 'cursor=garbage'),
    ];
    for (const u of refused) expectError(await get(k, u), 400, 'invalid_request', 'invalid_cursor', 'cursor');
    expectError(await get(k, `/v1/projects?cursor=${plain}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });
});

describe('isolation, scopes and refusals', () => {
  const strip = (e: Record<string, unknown>) => {
    const { request_id: _r, ...rest } = e;
    return rest;
  };

  it("another account's project → 404 on its item list, exactly like an unknown project", async () => {
    const foreign = await get(acme.keys.main, `/v1/projects/${s.other.projects.secret}/items`);
    const unknown = await get(acme.keys.main, `/v1/projects/${uuidv7()}/items`);
    const e1 = expectError(foreign, 404, 'not_found', 'resource_not_found');
    const e2 = expectError(unknown, 404, 'not_found', 'resource_not_found');
    expect(strip(e1)).toEqual(strip(e2));
    expect(foreign.body).not.toContain(s.other.projects.secret);
    expect(foreign.body).not.toContain(s.other.items.plan);
    expect(ids(await list(s.other.keys.main, s.other.projects.secret))).toEqual([s.other.items.plan]);
  });

  it("another account's item → 404 exactly like an unknown id, and never in a list", async () => {
    const foreign = await get(acme.keys.main, `/v1/items/${s.other.items.plan}`);
    const unknown = await get(acme.keys.main, `/v1/items/${uuidv7()}`);
    expect(strip(expectError(foreign, 404, 'not_found', 'resource_not_found'))).toEqual(strip(expectError(unknown, 404, 'not_found', 'resource_not_found')));
    expect(foreign.body).not.toContain('secret');
    for (const p of Object.values(acme.projects)) expect(ids(await list(acme.keys.main, p, '?limit=100'))).not.toContain(s.other.items.plan);
    expect((await one(s.other.keys.main, s.other.items.plan)).text).toBe('secret');
  });

  it('a key without content:read → 403 insufficient_scope naming it', async () => {
    for (const url of [`/v1/projects/${acme.projects.site}/items`, `/v1/items/${it_.about}`]) {
      const e = expectError(await get(acme.keys.wf, url), 403, 'permission', 'insufficient_scope');
      expect(e.message).toContain('content:read');
    }
  });

  it('reads still work while the subscription is inactive', async () => {
    expect(ids(await list(s.lapsed.keys.main, s.lapsed.projects.p))).toEqual([s.lapsed.items.x]);
    expect((await one(s.lapsed.keys.main, s.lapsed.items.x)).url).toBe('https://x.example/');
  });

  it('unknown query parameters, invalid ids, other methods', async () => {
    const k = acme.keys.main;
    const items = `/v1/projects/${acme.projects.site}/items`;
    expectError(await get(k, `${items}?sort=title`), 400, 'invalid_request', 'unknown_parameter', 'sort');
    expectError(await get(k, `${items}?changed_since=2026-01-01T00:00:00Z`), 400, 'invalid_request', 'unknown_parameter', 'changed_since');
    expectError(await get(k, `/v1/items/${it_.about}?expand=html`), 400, 'invalid_request', 'unknown_parameter', 'expand');
    expectError(await get(k, `${items}?limit=0`), 400, 'invalid_request', 'invalid_parameter', 'limit');
    expectError(await get(k, '/v1/projects/site/items'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await get(k, '/v1/items/about'), 400, 'invalid_request', 'invalid_id', 'id');
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/items/${it_.about}`, headers: bearer(k) });
    expectError(del, 405, 'invalid_request', 'method_not_allowed');
    expect(del.headers.allow).toBe('GET');
  });
});
