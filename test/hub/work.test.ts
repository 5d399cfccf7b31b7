// The hub's work management, read-only: projects that opened the area, one project, items with
// /v1's filters and paging, an item by key (a previous prefix finds it), sprints with totals.
// Security: no session, another account's projects (and a project without the area) are 404,
// and a write without the CSRF token or from another origin is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER } from '../../src/domain/hub.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let member: HubClient;
let other: HubClient;

const fixture = (ref: string) => ({
  ref,
  name: `Account ${ref}`,
  users: [
    { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
    { ref: 'olivia', email: `olivia@${ref}.example`, role: 'member', name: 'Olivia Lee' },
  ],
  keys: [],
  projects: [
    { ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' },
    { ref: 'blog', name: 'Blog' },
  ],
  workmgmt: {
    site: {
      previous_prefixes: ['SITE'],
      sprints: [
        { ref: 's1', name: 'Sprint 1', state: 'finished', start_date: '2026-10-05', end_date: '2026-10-16', review: { summary: 'Shipped pricing.' } },
        { ref: 's2', name: 'Sprint 2', state: 'active', start_date: '2026-10-19', end_date: '2026-10-30' },
      ],
      items: [
        { key: 'WEB-1', type: 'epic', title: 'Pricing', status: 'done', sprint: 's1', points: 5 },
        { key: 'WEB-2', type: 'story', title: 'Pricing page', status: 'in_progress', sprint: 's2', epic_key: 'WEB-1', labels: ['web'], assignee: 'olivia', points: 3, description: 'Build the page.' },
        { key: 'WEB-3', type: 'bug', title: 'Checkout fails', status: 'done', sprint: 's2', points: 2, labels: ['web'] },
        { key: 'WEB-4', type: 'task', title: 'Write copy', sprint: 's2' },
      ],
    },
  },
});

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'));
  member = await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.olivia, email: 'olivia@acme.example' });
  other = await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' });
});
afterAll(() => t.close());

const keys = (page: { data: { key: string }[] }) => page.data.map((i) => i.key);

describe('reading work management', () => {
  it('lists the projects that opened the area', async () => {
    const list = (await member.get('/hub/api/workmgmt/projects')).json();
    expect(list.data).toEqual([{ project_id: s.acme.projects.site, name: 'Website', key_prefix: 'WEB', previous_prefixes: ['SITE'] }]);
  });

  it("lists a project's items in key order with /v1's filters and paging", async () => {
    const base = `/hub/api/workmgmt/projects/${s.acme.projects.site}/items`;
    const all = await member.get(base);
    expect(all.statusCode, all.body).toBe(200);
    expect(keys(all.json())).toEqual(['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4']);
    expect(all.json().project).toEqual({ project_id: s.acme.projects.site, name: 'Website', key_prefix: 'WEB', previous_prefixes: ['SITE'] });
    expect(keys((await member.get(`${base}?status=done`)).json())).toEqual(['WEB-1', 'WEB-3']);
    expect(keys((await member.get(`${base}?type=bug`)).json())).toEqual(['WEB-3']);
    expect(keys((await member.get(`${base}?sprint_id=${s.acme.sprints.s2}&label=web`)).json())).toEqual(['WEB-2', 'WEB-3']);
    expect(keys((await member.get(`${base}?assignee=${s.acme.users.olivia}`)).json())).toEqual(['WEB-2']);
    expect(keys((await member.get(`${base}?assignee=none`)).json())).toEqual(['WEB-1', 'WEB-3', 'WEB-4']);
    expect(keys((await member.get(`${base}?epic=SITE-1`)).json())).toEqual(['WEB-2']);
    expect(keys((await member.get(`${base}?q=PAGE%20build`)).json())).toEqual(['WEB-2']);
    const first = (await member.get(`${base}?limit=3`)).json();
    expect(keys(first)).toEqual(['WEB-1', 'WEB-2', 'WEB-3']);
    const second = (await member.get(`${base}?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    expect(keys(second)).toEqual(['WEB-4']);
    expect(second.has_more).toBe(false);
    // The cursor is bound to the filters in force.
    expectError(await member.get(`${base}?limit=3&status=done&cursor=${encodeURIComponent(first.next_cursor)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('shows an item by key, a previous prefix included, with its history', async () => {
    const res = await member.get(`/hub/api/workmgmt/projects/${s.acme.projects.site}/items/SITE-2`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ key: 'WEB-2', title: 'Pricing page', description: 'Build the page.', epic_key: 'WEB-1', history: expect.any(Array) });
    expectError(await member.get(`/hub/api/workmgmt/projects/${s.acme.projects.site}/items/WEB-99`), 404, 'not_found', 'resource_not_found');
    expectError(await member.get(`/hub/api/workmgmt/projects/${s.acme.projects.site}/items/nokey`), 400, 'invalid_request', 'invalid_id', 'key');
  });

  it('lists sprints newest first with their totals', async () => {
    const res = await member.get(`/hub/api/workmgmt/projects/${s.acme.projects.site}/sprints`);
    expect(res.statusCode, res.body).toBe(200);
    const [s2, s1] = res.json().data;
    expect(s2).toMatchObject({ id: s.acme.sprints.s2, name: 'Sprint 2', state: 'active', totals: { items: 3, done: 1, points: 5, points_done: 2 } });
    expect(s1).toMatchObject({ id: s.acme.sprints.s1, state: 'finished', totals: { items: 1, done: 1, points: 5, points_done: 5 } });
  });

  it('refuses bad filters', async () => {
    const base = `/hub/api/workmgmt/projects/${s.acme.projects.site}/items`;
    expectError(await member.get(`${base}?status=nope`), 400, 'invalid_request', 'invalid_parameter', 'status');
    expectError(await member.get(`${base}?type=saga`), 400, 'invalid_request', 'invalid_parameter', 'type');
    expectError(await member.get(`${base}?sort=key`), 400, 'invalid_request', 'unknown_parameter', 'sort');
    expectError(await member.get('/hub/api/workmgmt/projects/not-a-uuid/items'), 400, 'invalid_request', 'invalid_id', 'project_id');
  });
});

describe('security', () => {
  const urls = (projectId: string) => [
    `/hub/api/workmgmt/projects/${projectId}/items`,
    `/hub/api/workmgmt/projects/${projectId}/items/WEB-1`,
    `/hub/api/workmgmt/projects/${projectId}/sprints`,
  ];

  it('answers 401 without a session', async () => {
    for (const url of ['/hub/api/workmgmt/projects', ...urls(s.acme.projects.site)]) {
      expectError(await t.app.inject({ method: 'GET', url }), 401, 'authentication', 'not_signed_in');
    }
  });

  it("answers 404 for another account's project, and for a project without the area", async () => {
    for (const url of urls(s.acme.projects.site)) expectError(await other.get(url), 404, 'not_found', 'resource_not_found');
    for (const url of urls(s.acme.projects.blog)) expectError(await member.get(url), 404, 'not_found', 'resource_not_found');
    const theirs = (await other.get('/hub/api/workmgmt/projects')).json().data;
    expect(theirs.map((p: { project_id: string }) => p.project_id)).toEqual([s.other.projects.site]);
  });

  // Issue 27 made the area writable (test/hub/work-write.test.ts, work-edit.test.ts): what stays
  // true here is that a read never writes, and a write needs the session's CSRF token and Origin.
  it('a write needs the CSRF token and our Origin, and a refused one creates nothing', async () => {
    const url = `/hub/api/workmgmt/projects/${s.acme.projects.site}/items`;
    const body = { type: 'task', title: 'x' };
    expectError(await member.request({ method: 'POST', url, payload: body, headers: { [CSRF_HEADER]: 'wrong' } }), 403, 'permission', 'csrf_failed');
    expectError(await member.request({ method: 'POST', url, payload: body, headers: { origin: 'https://evil.example' } }), 403, 'permission', 'csrf_failed');
    expect(keys((await member.get(url)).json())).toEqual(['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4']);
  });
});
