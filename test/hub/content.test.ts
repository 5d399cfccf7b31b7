// The hub's content: projects and their items (paged, the /v1 shapes), an item in detail, creating
// a page from Markdown or HTML (the /v1 sanitiser, a page.created audit entry in the same
// transaction, nothing written on a refusal) and the preview that saves nothing. Security: no
// session, another account's ids, CSRF and a foreign Origin on the writes, a lapsed account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { MAX_PAGE_BYTES } from '../../src/lib/page.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, seed, UUID_RE } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let member: HubClient;
let other: HubClient;

const fixture = (ref: string, extra: Record<string, unknown> = {}) => ({
  ref,
  name: `Account ${ref}`,
  users: [
    { ref: 'owner', email: `owner@${ref}.example`, role: 'owner', name: 'Olivia Owner' },
    { ref: 'member', email: `member@${ref}.example`, role: 'member', name: 'Max Member' },
  ],
  keys: [],
  projects: [
    {
      ref: 'site',
      name: 'Website',
      description: 'Marketing site',
      items: [
        { ref: 'about', kind: 'page', title: 'About us', text: '# About us\n\nWe make things.' },
        { ref: 'docs', kind: 'link', title: 'Docs', url: 'https://docs.example/' },
        { ref: 'deck', kind: 'file', title: 'Deck', filename: 'deck.pdf', content_type: 'application/pdf', size_bytes: 10 },
      ],
    },
    { ref: 'blog', name: 'Blog', items: [] },
  ],
  ...extra,
});

const count = async (accountId: string, table: 'content_items' | 'audit_log') =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from ${table} where account_id = $1`, [accountId]))[0].n;

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'), fixture('lapsed', { subscription: 'ended' }));
  member = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.member, email: 'member@acme.example' });
  other = await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' });
});
afterAll(() => t.close());

describe('reading content', () => {
  it('lists the projects newest first, paged', async () => {
    const res = await member.get('/hub/api/projects');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.data.map((p: { id: string }) => p.id).sort()).toEqual([s.acme.projects.site, s.acme.projects.blog].sort());
    expect(list.has_more).toBe(false);
    const page1 = (await member.get('/hub/api/projects?limit=1')).json();
    expect(page1.has_more).toBe(true);
    const page2 = (await member.get(`/hub/api/projects?limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`)).json();
    expect([page1.data[0].id, page2.data[0].id]).toEqual(list.data.map((p: { id: string }) => p.id));
  });

  it("lists a project's items, paged and by kind, and shows an item with its sanitised html", async () => {
    const list = (await member.get(`/hub/api/projects/${s.acme.projects.site}/items`)).json();
    expect(list.project).toMatchObject({ id: s.acme.projects.site, name: 'Website', description: 'Marketing site' });
    expect(list.data).toHaveLength(3);
    expect(list.data.find((i: { kind: string }) => i.kind === 'page')).not.toHaveProperty('html');
    const links = (await member.get(`/hub/api/projects/${s.acme.projects.site}/items?kind=link`)).json();
    expect(links.data).toEqual([expect.objectContaining({ id: s.acme.items.docs, kind: 'link', url: 'https://docs.example/' })]);
    const first = (await member.get(`/hub/api/projects/${s.acme.projects.site}/items?limit=2`)).json();
    expect(first.has_more).toBe(true);
    // A cursor is bound to its project's list.
    const foreign = await member.get(`/hub/api/projects/${s.acme.projects.blog}/items?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expectError(foreign, 400, 'invalid_request', 'invalid_cursor', 'cursor');
    const about = (await member.get(`/hub/api/items/${s.acme.items.about}`)).json();
    expect(about).toMatchObject({ kind: 'page', title: 'About us', text: '# About us\n\nWe make things.' });
    expect(about.html).toContain('<h1>About us</h1>');
  });

  it('refuses bad ids and filters', async () => {
    expectError(await member.get('/hub/api/items/nope'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await member.get(`/hub/api/projects/${s.acme.projects.site}/items?kind=video`), 400, 'invalid_request', 'invalid_parameter', 'kind');
    expectError(await member.get(`/hub/api/projects/${s.acme.projects.site}/items?nope=1`), 400, 'invalid_request', 'unknown_parameter', 'nope');
  });
});

describe('creating a page', () => {
  it('from Markdown: 201, the /v1 sanitiser, no key, and a page.created audit entry naming the user', async () => {
    const markdown = '# Notes\n\n- [Docs](https://docs.example.com/)\n\n<script>alert(1)</script>';
    const res = await member.post(`/hub/api/projects/${s.acme.projects.blog}/pages`, { title: ' Notes ', markdown });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({ kind: 'page', project_id: s.acme.projects.blog, title: 'Notes', text: markdown });
    expect(item.id).toMatch(UUID_RE);
    expect(item.html).toBe('<h1>Notes</h1>\n<ul>\n<li><a href="https://docs.example.com/" rel="noopener noreferrer nofollow">Docs</a></li>\n</ul>\n');
    expect((await member.get(`/hub/api/items/${item.id}`)).json()).toEqual(item);
    const [row] = await t.db.query<{ created_by_key: string | null }>('select created_by_key from content_items where id = $1', [item.id]);
    expect(row.created_by_key).toBeNull();
    const audit = await t.db.query<{ action: string; actor_id: string; actor_label: string; object_kind: string; object_id: string; detail: unknown }>(
      `select action, actor_id, actor_label, object_kind, object_id, detail from audit_log where account_id = $1 and object_id = $2`,
      [s.acme.id, item.id],
    );
    expect(audit).toEqual([
      {
        action: 'page.created',
        actor_id: s.acme.users.member,
        actor_label: 'Max Member <member@acme.example>',
        object_kind: 'item',
        object_id: item.id,
        detail: { project_id: s.acme.projects.blog, title: 'Notes' },
      },
    ]);
  });

  it('from HTML: sanitised', async () => {
    const res = await member.post(`/hub/api/projects/${s.acme.projects.blog}/pages`, { title: 'Menu', html: '<p onclick="x()">Hi</p><img src=x onerror=alert(1)>' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().html).toBe('<p>Hi</p><img src="x" />');
  });

  it('refuses what /v1 refuses, writing nothing', async () => {
    const url = `/hub/api/projects/${s.acme.projects.blog}/pages`;
    const items = await count(s.acme.id, 'content_items');
    const audits = await count(s.acme.id, 'audit_log');
    expectError(await member.post(url, { title: 'x', markdown: 'a', html: 'b' }), 422, 'invalid_request', 'invalid_field', 'html');
    expectError(await member.post(url, { title: 'x' }), 400, 'invalid_request', 'missing_field', 'markdown');
    expectError(await member.post(url, { title: '   ', markdown: 'a' }), 422, 'invalid_request', 'invalid_field', 'title');
    expectError(await member.post(url, { title: 'x', markdown: 'a', extra: 1 }), 422, 'invalid_request', 'unknown_field', 'extra');
    expectError(await member.post(url, { title: 'Big', html: `<p>${'a'.repeat(MAX_PAGE_BYTES)}</p>` }), 413, 'invalid_request', 'page_too_large', 'html');
    expectError(await member.post(`/hub/api/projects/${s.other.projects.site}/pages`, { title: 'x', markdown: 'a' }), 404, 'not_found', 'resource_not_found');
    expect(await count(s.acme.id, 'content_items')).toBe(items);
    expect(await count(s.acme.id, 'audit_log')).toBe(audits);
  });
});

describe('preview', () => {
  it('gives the sanitised HTML and saves nothing', async () => {
    const before = await count(s.acme.id, 'content_items');
    const res = await member.post('/hub/api/pages/preview', { markdown: '**bold** <script>x()</script>' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ html: '<p><strong>bold</strong> </p>\n', bytes: 30 });
    const html = (await member.post('/hub/api/pages/preview', { html: '<a href="javascript:x()">a</a>' })).json();
    expect(html.html).toBe('<a rel="noopener noreferrer nofollow">a</a>');
    expect(await count(s.acme.id, 'content_items')).toBe(before);
  });

  it('refuses both or neither source, and a page over the limit', async () => {
    expectError(await member.post('/hub/api/pages/preview', {}), 400, 'invalid_request', 'missing_field', 'markdown');
    expectError(await member.post('/hub/api/pages/preview', { markdown: 'a', html: 'b' }), 422, 'invalid_request', 'invalid_field', 'html');
    expectError(await member.post('/hub/api/pages/preview', { markdown: 'a'.repeat(MAX_PAGE_BYTES + 10) }), 413, 'invalid_request', 'page_too_large', 'markdown');
  });
});

describe('security', () => {
  it('answers 401 without a session on every route', async () => {
    const urls = ['/hub/api/projects', `/hub/api/projects/${s.acme.projects.site}/items`, `/hub/api/items/${s.acme.items.about}`];
    for (const url of urls) expectError(await t.app.inject({ method: 'GET', url }), 401, 'authentication', 'not_signed_in');
    for (const url of [`/hub/api/projects/${s.acme.projects.site}/pages`, '/hub/api/pages/preview']) {
      expectError(await t.app.inject({ method: 'POST', url, payload: { title: 'x', markdown: 'a' } }), 401, 'authentication', 'not_signed_in');
    }
  });

  it("answers 404 for another account's projects and items", async () => {
    for (const url of [`/hub/api/projects/${s.acme.projects.site}/items`, `/hub/api/items/${s.acme.items.about}`]) {
      expectError(await other.get(url), 404, 'not_found', 'resource_not_found');
    }
    const theirs = (await other.get('/hub/api/projects')).json().data.map((p: { id: string }) => p.id);
    expect(theirs).not.toContain(s.acme.projects.site);
  });

  it('refuses writes without the CSRF token or from a foreign Origin', async () => {
    const before = await count(s.acme.id, 'content_items');
    for (const url of [`/hub/api/projects/${s.acme.projects.site}/pages`, '/hub/api/pages/preview']) {
      const body = { title: 'x', markdown: 'a' };
      const payload = url.endsWith('preview') ? { markdown: 'a' } : body;
      expectError(await member.request({ method: 'POST', url, payload, headers: { 'x-csrf-token': 'wrong' } }), 403, 'permission', 'csrf_failed');
      expectError(await member.request({ method: 'POST', url, payload, headers: { origin: 'https://evil.example' } }), 403, 'permission', 'csrf_failed');
    }
    expect(await count(s.acme.id, 'content_items')).toBe(before);
  });

  it('refuses a page in an account whose plan ended, and still lets it read', async () => {
    const lapsed = await hubClient(t, { accountId: s.lapsed.id, userId: s.lapsed.users.member, email: 'member@lapsed.example' });
    expectError(await lapsed.post(`/hub/api/projects/${s.lapsed.projects.site}/pages`, { title: 'x', markdown: 'a' }), 403, 'permission', 'subscription_inactive');
    expect((await lapsed.get('/hub/api/projects')).statusCode).toBe(200);
  });
});
