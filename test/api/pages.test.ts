// POST /v1/projects/{id}/items: creating a page from Markdown or HTML. The created item (201, the
// detail shape), sanitising end to end, the body rules (exactly one of markdown and html, the
// title), page_too_large at the 512 KiB boundary with nothing written, the optional
// Idempotency-Key, isolation between accounts, scope and subscription_inactive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { MAX_PAGE_BYTES } from '../../src/lib/page.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed, UUID_RE } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
const RW = ['content:read' as const, 'content:write' as const];

interface PostOpts {
  key?: string;
  idem?: string;
  raw?: string;
  contentType?: string;
}
function post(projectId: string, body: unknown, o: PostOpts = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/projects/${projectId}/items`,
    headers: {
      ...bearer(o.key ?? acme.keys.main),
      'content-type': o.contentType ?? 'application/json',
      ...(o.idem !== undefined ? { 'idempotency-key': o.idem } : {}),
    },
    payload: o.raw ?? JSON.stringify(body),
  });
}
const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });

async function pages(accountId: string): Promise<number> {
  const [r] = await t.db.query<{ n: number }>(`select count(*)::int as n from content_items where account_id = $1`, [accountId]);
  return r.n;
}
/** Runs fn and checks that it wrote no item in the account. */
async function writesNothing(accountId: string, fn: () => Promise<void>): Promise<void> {
  const before = await pages(accountId);
  await fn();
  expect(await pages(accountId)).toBe(before);
}

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    account('acme', { tier: 'enterprise', projects: ['site', 'blog'], keys: [{ ref: 'main', scopes: RW }, { ref: 'ro', scopes: ['content:read'] }] }),
    account('other', { tier: 'enterprise', projects: ['secret'], keys: [{ ref: 'main', scopes: RW }] }),
    account('lapsed', { subscription: 'ended', projects: ['p'], keys: [{ ref: 'main', scopes: RW }] }),
  );
  acme = s.acme;
});
afterAll(() => t?.close());

describe('creating a page', () => {
  it('from Markdown: 201 with the item in detail shape; text is the Markdown, html its sanitised rendering; title trimmed', async () => {
    const markdown = '# Release notes\n\n- Faster *search*\n- [Docs](https://docs.example.com/)\n\n<script>alert(1)</script>';
    const res = await post(acme.projects.site, { title: '  Release notes \n', markdown });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['idempotent-replay']).toBeUndefined();
    const item = res.json();
    expect(Object.keys(item).sort()).toEqual(['created_at', 'html', 'id', 'kind', 'project_id', 'text', 'title', 'updated_at']);
    expect(item).toMatchObject({ kind: 'page', project_id: acme.projects.site, title: 'Release notes', text: markdown });
    expect(item.id).toMatch(UUID_RE);
    expect(item.created_at).toMatch(ISO_MS);
    expect(item.updated_at).toBe(item.created_at);
    expect(item.html).toBe(
      '<h1>Release notes</h1>\n<ul>\n<li>Faster <em>search</em></li>\n' +
        '<li><a href="https://docs.example.com/" rel="noopener noreferrer nofollow">Docs</a></li>\n</ul>\n',
    );
    // the same item from Get an item, and first in the project's list (most recently updated)
    expect((await get(acme.keys.main, `/v1/items/${item.id}`)).json()).toEqual(item);
    const listed = (await get(acme.keys.main, `/v1/projects/${acme.projects.site}/items`)).json().data;
    expect(listed[0]).toEqual({ id: item.id, project_id: item.project_id, kind: 'page', title: item.title, created_at: item.created_at, updated_at: item.updated_at });
    const [row] = await t.db.query<{ created_by_key: string | null; html: string }>('select created_by_key, html from content_items where id = $1', [item.id]);
    expect(row.created_by_key).toMatch(UUID_RE);
    expect(row.html).toBe(item.html);
  });

  it('from HTML: html sanitised, text its plain-text rendition', async () => {
    const html =
      '<h2>Menu</h2><p onclick="steal()">Fish &amp; chips,\n   <b>hot</b>.</p><img src=x onerror=alert(1)>' +
      '<a href="javascript:alert(1)">bad</a><iframe src="https://evil.example"></iframe><ul><li>one</li><li>two</li></ul>';
    const res = await post(acme.projects.blog, { title: 'Menu', html });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json();
    expect(item.html).toBe(
      '<h2>Menu</h2><p>Fish &amp; chips,\n   <b>hot</b>.</p><img src="x" /><a rel="noopener noreferrer nofollow">bad</a><ul><li>one</li><li>two</li></ul>',
    );
    expect(item.text).toBe('Menu\n\nFish & chips, hot.\n\nbad\n\n- one\n- two');
    expect(item.project_id).toBe(acme.projects.blog);
  });

  it('an empty page is allowed; a title of exactly 500 characters is accepted', async () => {
    const empty = await post(acme.projects.site, { title: 'Empty', markdown: '' });
    expect(empty.statusCode).toBe(201);
    expect(empty.json()).toMatchObject({ text: '', html: '' });
    const long = await post(acme.projects.site, { title: 'é'.repeat(500), html: '<p>x</p>' });
    expect(long.statusCode).toBe(201);
    expect(long.json().title).toBe('é'.repeat(500));
  });

  it('without an Idempotency-Key every request makes a new page', async () => {
    const before = await pages(acme.id);
    const a = await post(acme.projects.site, { title: 'Twice', markdown: 'same' });
    const b = await post(acme.projects.site, { title: 'Twice', markdown: 'same' });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).not.toBe(b.json().id);
    expect(await pages(acme.id)).toBe(before + 2);
  });
});

describe('body rules', () => {
  const p = () => acme.projects.site;

  it('neither markdown nor html → 400 missing_field (param markdown); both → 422 invalid_field (param html)', async () => {
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { title: 'T' }), 400, 'invalid_request', 'missing_field', 'markdown');
      expectError(await post(p(), { title: 'T', markdown: 'a', html: '<p>a</p>' }), 422, 'invalid_request', 'invalid_field', 'html');
      expectError(await post(p(), { title: 'T', markdown: '', html: '' }), 422, 'invalid_request', 'invalid_field', 'html');
    });
  });

  it('the title: required, a string, not blank, at most 500 characters', async () => {
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { markdown: 'a' }), 400, 'invalid_request', 'missing_field', 'title');
      for (const title of ['', '   ', '\n\t', 'x'.repeat(501), 42, null, ['a']]) {
        expectError(await post(p(), { title, markdown: 'a' }), 422, 'invalid_request', 'invalid_field', 'title');
      }
    });
  });

  it('wrong types, unknown fields, bodies that are not JSON objects', async () => {
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { title: 'T', markdown: null }), 422, 'invalid_request', 'invalid_field', 'markdown');
      expectError(await post(p(), { title: 'T', html: { p: 'x' } }), 422, 'invalid_request', 'invalid_field', 'html');
      expectError(await post(p(), { title: 'T', markdown: 'a', kind: 'page' }), 422, 'invalid_request', 'unknown_field', 'kind');
      expectError(await post(p(), { title: 'T', text: 'a' }), 422, 'invalid_request', 'unknown_field', 'text');
      expectError(await post(p(), ['title']), 422, 'invalid_request', 'invalid_body');
      expectError(await post(p(), null, { raw: '{"title": "T",' }), 400, 'invalid_request', 'invalid_json');
      expectError(await post(p(), null, { raw: 'title=T', contentType: 'application/x-www-form-urlencoded' }), 415, 'invalid_request', 'unsupported_media_type');
      expectError(await post(p(), null, { raw: '' }), 400, 'invalid_request', 'missing_field', 'title');
    });
  });

  it('a source that cannot be converted in time → 422 invalid_field naming it; nothing written', async () => {
    await writesNothing(acme.id, async () => {
      const e = expectError(await post(p(), { title: 'Slow', markdown: '[a]('.repeat(4000) }), 422, 'invalid_request', 'invalid_field', 'markdown');
      expect(e.message).toContain('could not be converted');
    });
  }, 120_000);
});

describe('page_too_large: 512 KiB of HTML once converted and sanitised', () => {
  const p = () => acme.projects.site;
  const wrap = (n: number) => `<p>${'x'.repeat(n - 7)}</p>`; // exactly n bytes

  it('HTML of exactly 524,288 bytes passes; one byte more → 413 page_too_large and nothing is written', async () => {
    expect(MAX_PAGE_BYTES).toBe(524_288);
    const ok = await post(p(), { title: 'Max', html: wrap(MAX_PAGE_BYTES) });
    expect(ok.statusCode).toBe(201);
    expect(Buffer.byteLength(ok.json().html)).toBe(MAX_PAGE_BYTES);
    await writesNothing(acme.id, async () => {
      const e = expectError(await post(p(), { title: 'Max+1', html: wrap(MAX_PAGE_BYTES + 1) }), 413, 'invalid_request', 'page_too_large', 'html');
      expect(e.message).toContain('524288');
    });
  });

  it('Markdown is measured after conversion: "<p>" + text + "</p>\\n" at the boundary, counted in UTF-8 bytes', async () => {
    expect((await post(p(), { title: 'Md max', markdown: 'x'.repeat(MAX_PAGE_BYTES - 8) })).statusCode).toBe(201);
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { title: 'Md max+1', markdown: 'x'.repeat(MAX_PAGE_BYTES - 7) }), 413, 'invalid_request', 'page_too_large', 'markdown');
      // 262,141 two-byte characters: fewer characters than the limit, more bytes
      expectError(await post(p(), { title: 'Bytes', markdown: 'é'.repeat(262_141) }), 413, 'invalid_request', 'page_too_large', 'markdown');
    });
    expect((await post(p(), { title: 'Bytes ok', markdown: 'é'.repeat(262_140) })).statusCode).toBe(201);
  });

  it('what the sanitiser removes does not count; what conversion adds does', async () => {
    const script = `<script>${'x'.repeat(MAX_PAGE_BYTES)}</script><p>kept</p>`;
    const res = await post(p(), { title: 'Script', html: script });
    expect(res.statusCode).toBe(201);
    expect(res.json().html).toBe('<p>kept</p>');
    // 56 KB of Markdown, 576 KB of HTML: each reference link becomes an <a> with href and rel
    const links = '[a][r] '.repeat(8000) + '\n\n[r]: https://example.com/';
    expect(Buffer.byteLength(links)).toBeLessThan(MAX_PAGE_BYTES / 8);
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { title: 'Links', markdown: links }), 413, 'invalid_request', 'page_too_large', 'markdown');
    });
  });

  it('a body over 1 MiB is refused first: 413 body_too_large', async () => {
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { title: 'Huge', markdown: 'x'.repeat(1_048_576) }), 413, 'invalid_request', 'body_too_large');
    });
  });
});

describe('Idempotency-Key (optional)', () => {
  const p = () => acme.projects.site;

  it('same key and same request → the first answer with Idempotent-Replay: true; one page', async () => {
    const body = { title: 'Once', markdown: '*once*' };
    const before = await pages(acme.id);
    const first = await post(p(), body, { idem: 'page-key-0001' });
    expect(first.statusCode).toBe(201);
    const again = await post(p(), body, { idem: 'page-key-0001' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await pages(acme.id)).toBe(before + 1);
  });

  it('same key with another body or another project → 422 idempotency_key_reused; nothing written', async () => {
    expect((await post(p(), { title: 'A', markdown: 'a' }, { idem: 'page-key-0002' })).statusCode).toBe(201);
    await writesNothing(acme.id, async () => {
      expectError(await post(p(), { title: 'A', markdown: 'b' }, { idem: 'page-key-0002' }), 422, 'invalid_request', 'idempotency_key_reused', 'Idempotency-Key');
      expectError(await post(acme.projects.blog, { title: 'A', markdown: 'a' }, { idem: 'page-key-0002' }), 422, 'invalid_request', 'idempotency_key_reused', 'Idempotency-Key');
    });
  });

  it('a malformed key → 400 invalid_idempotency_key', async () => {
    await writesNothing(acme.id, async () => {
      for (const k of ['short', 'has space in it', 'x'.repeat(65)]) {
        expectError(await post(p(), { title: 'K', markdown: 'k' }, { idem: k }), 400, 'invalid_request', 'invalid_idempotency_key', 'Idempotency-Key');
      }
    });
  });

  it('refusals before anything happened do not use the key up (404 project, 413 page_too_large)', async () => {
    const body = { title: 'Later', markdown: 'later' };
    expectError(await post(uuidv7(), body, { idem: 'page-key-0003' }), 404, 'not_found', 'resource_not_found');
    expect((await post(p(), body, { idem: 'page-key-0003' })).statusCode).toBe(201);
    expectError(await post(p(), { title: 'Big', html: `<p>${'x'.repeat(MAX_PAGE_BYTES)}</p>` }, { idem: 'page-key-0004' }), 413, 'invalid_request', 'page_too_large', 'html');
    expect((await post(p(), { title: 'Small', html: '<p>x</p>' }, { idem: 'page-key-0004' })).statusCode).toBe(201);
  });

  it('keys are per account: the same key in another account makes its own page', async () => {
    const body = { title: 'Shared key', markdown: 'x' };
    const a = await post(p(), body, { idem: 'page-key-0005' });
    const b = await post(s.other.projects.secret, body, { idem: 'page-key-0005', key: s.other.keys.main });
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.headers['idempotent-replay']).toBeUndefined();
    expect(b.json().project_id).toBe(s.other.projects.secret);
  });
});

describe('isolation, scope and subscription', () => {
  it("another account's project → 404 exactly like an unknown project; nothing written in either account", async () => {
    await writesNothing(s.other.id, async () => {
      await writesNothing(acme.id, async () => {
        const foreign = await post(s.other.projects.secret, { title: 'Sneaky', markdown: 'x' });
        const unknown = await post(uuidv7(), { title: 'Sneaky', markdown: 'x' });
        const { request_id: _a, ...e1 } = expectError(foreign, 404, 'not_found', 'resource_not_found');
        const { request_id: _b, ...e2 } = expectError(unknown, 404, 'not_found', 'resource_not_found');
        expect(e1).toEqual(e2);
        expect(foreign.body).not.toContain(s.other.projects.secret);
      });
    });
  });

  it('a key with content:read only → 403 insufficient_scope naming content:write', async () => {
    await writesNothing(acme.id, async () => {
      const e = expectError(await post(acme.projects.site, { title: 'T', markdown: 'x' }, { key: acme.keys.ro }), 403, 'permission', 'insufficient_scope');
      expect(e.message).toContain('content:write');
    });
  });

  it('an ended plan → 403 subscription_inactive on create; reads still work', async () => {
    const l = s.lapsed;
    await writesNothing(l.id, async () => {
      expectError(await post(l.projects.p, { title: 'T', markdown: 'x' }, { key: l.keys.main }), 403, 'permission', 'subscription_inactive');
    });
    expect((await get(l.keys.main, `/v1/projects/${l.projects.p}/items`)).statusCode).toBe(200);
    expect((await get(l.keys.main, `/v1/projects/${l.projects.p}`)).statusCode).toBe(200);
  });

  it('an invalid project id → 400 invalid_id; query parameters are refused', async () => {
    expectError(await post('site', { title: 'T', markdown: 'x' }), 400, 'invalid_request', 'invalid_id', 'id');
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/projects/${acme.projects.site}/items?draft=true`,
      headers: { ...bearer(acme.keys.main), 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'T', markdown: 'x' }),
    });
    expectError(res, 400, 'invalid_request', 'unknown_parameter', 'draft');
  });
});
