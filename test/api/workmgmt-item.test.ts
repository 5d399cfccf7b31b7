// GET /v1/workmgmt/projects/{project_id}/items/{key}: the detail (description, linked documents
// that still exist, the whole history in time order), lookup by the current or a previous prefix,
// malformed keys, isolation between projects and accounts; and spec rule 9: reading never opens
// the area nor writes anything, 404s included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, ISO_MS, seed } from '../http/fixtures.js';

const DETAIL_KEYS = [
  'assignee', 'created_at', 'description', 'due_date', 'epic_key', 'history', 'key', 'labels', 'linked_documents', 'points',
  'sprint_id', 'start_date', 'status', 'title', 'type', 'updated_at',
];

const acmeFixture = (ref: string, extra: Record<string, unknown> = {}) => ({
  ...account(ref, { keys: [{ ref: 'main', scopes: ['workmgmt:read'] }, { ref: 'noscope', scopes: ['content:read', 'workflows:read'] }] }),
  ...extra,
  users: [
    { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
    { ref: 'olivia', email: `olivia@${ref}.example`, role: 'member', name: 'Olivia Lee' },
  ],
  projects: [
    {
      ref: 'site',
      name: 'Website',
      workmgmt_prefix: 'WEB',
      items: [
        { ref: 'about', kind: 'page', title: 'About us', text: '# About' },
        { ref: 'deck', kind: 'file', title: 'Sales deck', filename: 'deck.pdf', content_type: 'application/pdf', size_bytes: 10 },
        { ref: 'gone', kind: 'link', title: 'Removed link', url: 'https://x.example/' },
      ],
    },
    { ref: 'blog', name: 'Blog' },
    { ref: 'app', name: 'App', workmgmt_prefix: 'APP' },
  ],
  workmgmt: {
    site: {
      previous_prefixes: ['SITE', 'W2'],
      sprints: [{ ref: 's1', name: 'Sprint 1', state: 'active' }],
      items: [
        { key: 'WEB-1', type: 'epic', title: 'Pricing' },
        {
          key: 'WEB-2', type: 'story', title: 'Pricing page', status: 'in_progress', sprint: 's1', epic_key: 'WEB-1', labels: ['web'],
          assignee: 'olivia', points: 3, start_date: '2026-10-19', due_date: '2026-10-28', description: 'Build the page.',
          linked_documents: ['deck', 'gone', 'about'],
          history: [
            { at: '2026-10-19T09:00:00Z', actor: 'olivia', kind: 'change', field: 'status', from: 'todo', to: 'in_progress' },
            { at: '2026-10-20T10:30:00.250Z', actor: 'owner', kind: 'comment', text: 'Draft is up.' },
            // Earlier than both above though written after them: history comes in time order.
            { at: '2026-10-18T08:00:00Z', kind: 'change', field: 'assignee', from: null, to: 'Olivia Lee' },
            { at: '2026-10-21T12:00:00Z', actor: 'olivia', kind: 'change', field: 'points', from: 2, to: 3 },
          ],
        },
        { key: 'WEB-3', type: 'bug', title: 'Checkout fails' },
      ],
    },
    app: { items: [{ key: 'APP-1', type: 'task', title: 'Login' }] },
  },
});

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let acme: AccountSeedResult;
let K: string;

const get = (key: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(key) });
const itemUrl = (projectId: string, key: string) => `/v1/workmgmt/projects/${projectId}/items/${key}`;
async function item(key: string, projectId = acme.projects.site, apiKey = K) {
  const res = await get(apiKey, itemUrl(projectId, key));
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await testApp();
  s = await seed(
    t.db,
    acmeFixture('acme'),
    acmeFixture('other'), // the same prefixes and keys in another account
    acmeFixture('lapsed', { subscription: 'lapsed' }),
  );
  acme = s.acme;
  K = acme.keys.main;
  await t.db.query('delete from content_items where account_id = $1 and id = $2', [acme.id, acme.items.gone]);
});
afterAll(() => t?.close());

describe('the item detail', () => {
  it('has the list fields plus description, linked documents that still exist and the whole history, oldest first', async () => {
    const body = await item('WEB-2');
    expect(Object.keys(body).sort()).toEqual(DETAIL_KEYS);
    expect(body.created_at).toMatch(ISO_MS);
    const olivia = { id: acme.users.olivia, name: 'Olivia Lee' };
    expect(body).toEqual({
      key: 'WEB-2', type: 'story', title: 'Pricing page', status: 'in_progress', sprint_id: acme.sprints.s1, epic_key: 'WEB-1',
      labels: ['web'], assignee: olivia, start_date: '2026-10-19', due_date: '2026-10-28', points: 3,
      created_at: body.created_at, updated_at: body.updated_at,
      description: 'Build the page.',
      linked_documents: [
        { id: acme.items.deck, kind: 'file', title: 'Sales deck' },
        { id: acme.items.about, kind: 'page', title: 'About us' },
      ],
      history: [
        { at: '2026-10-18T08:00:00.000Z', actor: null, kind: 'change', field: 'assignee', from: null, to: 'Olivia Lee' },
        { at: '2026-10-19T09:00:00.000Z', actor: olivia, kind: 'change', field: 'status', from: 'todo', to: 'in_progress' },
        { at: '2026-10-20T10:30:00.250Z', actor: { id: acme.users.owner, name: 'owner@acme.example' }, kind: 'comment', text: 'Draft is up.' },
        { at: '2026-10-21T12:00:00.000Z', actor: olivia, kind: 'change', field: 'points', from: '2', to: '3' },
      ],
    });
  });

  it('carries exactly the fields the list gives for the same item', async () => {
    const list = (await get(K, `/v1/workmgmt/projects/${acme.projects.site}/items`)).json().data;
    for (const listed of list) {
      const { description: _d, linked_documents: _l, history: _h, ...rest } = await item(listed.key);
      expect(rest).toEqual(listed);
    }
  });

  it('an item without links or history: empty arrays and an empty description', async () => {
    expect(await item('WEB-3')).toMatchObject({ description: '', linked_documents: [], history: [], sprint_id: null, epic_key: null });
  });
});

describe('keys', () => {
  it('a previous prefix finds the item; the answer carries the current key', async () => {
    const current = await item('WEB-2');
    for (const old of ['SITE-2', 'W2-2']) expect(await item(old)).toEqual(current);
    expect((await item('SITE-1')).key).toBe('WEB-1');
  });

  it('malformed keys → 400 invalid_id naming key', async () => {
    for (const key of ['web-2', 'WEB-02', 'WEB-0', 'WEB2', 'WEB-', '-2', 'WEB-2-3', 'WEB-2x', 'ABCDEFGHIJK-2', 'WEB-12345678901', '2WEB-2', uuidv7(), 'WEB-%202']) {
      expectError(await get(K, itemUrl(acme.projects.site, key)), 400, 'invalid_request', 'invalid_id', 'key');
    }
    expectError(await get(K, itemUrl('site', 'WEB-2')), 400, 'invalid_request', 'invalid_id', 'project_id');
    expectError(await get(K, `${itemUrl(acme.projects.site, 'WEB-2')}?expand=history`), 400, 'invalid_request', 'unknown_parameter', 'expand');
  });

  it('well-formed keys that name nothing here → 404; another account\'s project answers exactly like an unknown one', async () => {
    const body = async (projectId: string, key: string) => {
      const { request_id: _r, ...e } = expectError(await get(K, itemUrl(projectId, key)), 404, 'not_found', 'resource_not_found');
      return e;
    };
    const noItem = await body(acme.projects.site, 'WEB-99');
    for (const [projectId, key] of [
      [acme.projects.site, 'WEB-4294967296'], // beyond any item number
      [acme.projects.site, 'FOO-2'], // no prefix of this project
      [acme.projects.site, 'APP-1'], // the other project's prefix
      [acme.projects.app, 'WEB-2'],
      [acme.projects.app, 'SITE-2'],
    ]) {
      expect(await body(projectId, key)).toEqual(noItem);
    }
    const noProject = await body(uuidv7(), 'WEB-2');
    expect(noProject.message).toContain('project');
    for (const [projectId, key] of [
      [acme.projects.blog, 'WEB-2'], // never opened the area
      [s.other.projects.site, 'WEB-2'], // another account's project, same key
      [s.other.projects.site, 'WEB-99'],
    ]) {
      expect(await body(projectId, key)).toEqual(noProject);
    }
  });

  it("each account reads only its own item behind the same key", async () => {
    const theirs = await item('WEB-2', s.other.projects.site, s.other.keys.main);
    expect(theirs.assignee.id).toBe(s.other.users.olivia);
    expect(theirs.linked_documents.map((d: { id: string }) => d.id)).toEqual([s.other.items.deck, s.other.items.gone, s.other.items.about]);
    expect(JSON.stringify(await item('WEB-2'))).not.toContain(s.other.users.olivia);
  });
});

describe('reading writes nothing (spec rule 9)', () => {
  async function snapshot(): Promise<string> {
    const tables = ['projects', 'wm_sprints', 'wm_items', 'wm_item_history', 'content_items'];
    const out: Record<string, unknown> = {};
    for (const table of tables) {
      out[table] = await t.db.query(`select * from ${table} order by account_id, ${table === 'wm_item_history' ? 'item_id, seq' : 'id'}`);
    }
    return JSON.stringify(out);
  }

  it('a batch of reads, 404s on a project without the area included, changes no row', async () => {
    const before = await snapshot();
    const { site, blog, app } = acme.projects;
    const urls = [
      '/v1/workmgmt/projects',
      ...[site, blog, app, uuidv7(), s.other.projects.site].flatMap((p) => [
        `/v1/workmgmt/projects/${p}/items?q=page&changed_since=2020-01-01T00:00:00Z`,
        `/v1/workmgmt/projects/${p}/sprints`,
        itemUrl(p, 'WEB-2'),
        itemUrl(p, 'SITE-1'),
        itemUrl(p, 'BLOG-1'),
      ]),
    ];
    const statuses = [];
    for (const url of urls) statuses.push((await get(K, url)).statusCode);
    expect(statuses.filter((c) => c === 200).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((c) => c === 404).length).toBeGreaterThanOrEqual(15);
    expect(await snapshot()).toBe(before);
    const [blogRow] = await t.db.query<Record<string, unknown>>('select wm_prefix, wm_opened_at, wm_next_number from projects where id = $1', [blog]);
    expect(blogRow).toEqual({ wm_prefix: null, wm_opened_at: null, wm_next_number: 1 });
  });
});

describe('scope and account state', () => {
  it('a key without workmgmt:read → 403 insufficient_scope naming it', async () => {
    const e = expectError(await get(acme.keys.noscope, itemUrl(acme.projects.site, 'WEB-2')), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('workmgmt:read');
  });

  it('a lapsed subscription still reads (subscription_inactive is for writes only)', async () => {
    const l = s.lapsed;
    expect((await item('WEB-2', l.projects.site, l.keys.main)).key).toBe('WEB-2');
    for (const url of ['/v1/workmgmt/projects', `/v1/workmgmt/projects/${l.projects.site}/items`, `/v1/workmgmt/projects/${l.projects.site}/sprints`]) {
      expect((await get(l.keys.main, url)).statusCode, url).toBe(200);
    }
  });
});
