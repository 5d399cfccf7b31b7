// Work management written from the hub (issue 27, part 1): opening the area and renaming its
// prefix (owners and admins, audited), creating items with every field checked against the
// account and the project, edits with one history row per changed field and a conflict on a stale
// version, and soft delete (hidden from /v1 too, number never reused). Security: roles, and
// another account's project, item, user, sprint or page answer as unknown ones do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';
import { workAccount, workClients } from './work-support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let owner: HubClient;
let member: HubClient;
let other: HubClient;

const fixture = (ref: string) => workAccount(ref, {
  projects: [
    { ref: 'site', name: 'Website', workmgmt_prefix: 'WEB', items: [{ ref: 'spec', kind: 'page', title: 'Spec', text: '# Spec' }] },
    { ref: 'blog', name: 'Blog', items: [{ ref: 'post', kind: 'page', title: 'Post', text: 'x' }, { ref: 'link', kind: 'link', title: 'L', url: 'https://x.example/' }] },
    { ref: 'app', name: 'App', workmgmt_prefix: 'APP' },
  ],
  workmgmt: {
    site: {
      previous_prefixes: ['SITE'],
      sprints: [{ ref: `${ref}s1`, name: 'Sprint 1', state: 'active' }],
      items: [{ key: 'WEB-1', type: 'epic', title: 'Pricing' }],
    },
    app: { sprints: [{ ref: `${ref}s9`, name: 'App sprint' }], items: [{ key: 'APP-1', type: 'epic', title: 'App epic' }] },
  },
});

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'));
  ({ owner, member, other } = await workClients(t, s));
});
afterAll(() => t.close());

const items = (projectId = s.acme.projects.site) => `/hub/api/workmgmt/projects/${projectId}/items`;
const v1 = (path: string) => t.app.inject({ method: 'GET', url: `/v1/workmgmt${path}`, headers: bearer(s.acme.keys.main) });
const auditOf = (action: string) =>
  t.db.query<{ object_id: string; actor_id: string; detail: Record<string, unknown> }>(
    'select object_id, actor_id, detail from audit_log where account_id = $1 and action = $2 order by at',
    [s.acme.id, action],
  );

describe('opening the area and renaming its prefix', () => {
  it('an owner opens it with a prefix; /v1 then lists the project; opening again is 409', async () => {
    const url = `/hub/api/workmgmt/projects/${s.acme.projects.blog}/open`;
    const res = await owner.post(url, { prefix: 'BLOG' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ project_id: s.acme.projects.blog, name: 'Blog', key_prefix: 'BLOG', previous_prefixes: [] });
    const listed = (await v1('/projects')).json().data.map((p: { key_prefix: string }) => p.key_prefix);
    expect(listed.sort()).toEqual(['APP', 'BLOG', 'WEB']);
    expect(await auditOf('work.opened')).toEqual([
      { object_id: s.acme.projects.blog, actor_id: s.acme.users.owner, detail: { project: 'Blog', prefix: 'BLOG' } },
    ]);
    expectError(await owner.post(url, { prefix: 'B2' }), 409, 'conflict', 'work_area_open', 'prefix');
    const created = await member.post(items(s.acme.projects.blog), { type: 'task', title: 'First' });
    expect(created.json().key).toBe('BLOG-1');
  });

  it('refuses a prefix the stored data could not hold, naming the field', async () => {
    for (const prefix of ['web', '1AB', 'ABCDEFGHIJK', 'A-B', '']) {
      expectError(await owner.patch(`/hub/api/workmgmt/projects/${s.acme.projects.app}/prefix`, { prefix }), 422, 'invalid_request', 'invalid_field', 'prefix');
    }
    expectError(await owner.patch(`/hub/api/workmgmt/projects/${s.acme.projects.app}/prefix`, {}), 400, 'invalid_request', 'missing_field', 'prefix');
  });

  it('renames the prefix: old keys still find items, a prefix taken up again leaves the previous ones', async () => {
    const url = `/hub/api/workmgmt/projects/${s.acme.projects.app}/prefix`;
    const res = await owner.patch(url, { prefix: 'MOB' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ key_prefix: 'MOB', previous_prefixes: ['APP'] });
    expect((await member.get(`${items(s.acme.projects.app)}/APP-1`)).json().key).toBe('MOB-1');
    expect((await v1(`/projects/${s.acme.projects.app}/items/APP-1`)).json().key).toBe('MOB-1');
    expect((await owner.patch(url, { prefix: 'APP' })).json()).toMatchObject({ key_prefix: 'APP', previous_prefixes: ['MOB'] });
    // The same prefix again changes nothing and records nothing.
    expect((await owner.patch(url, { prefix: 'APP' })).json()).toMatchObject({ key_prefix: 'APP', previous_prefixes: ['MOB'] });
    expect((await auditOf('work.prefix_changed')).map((a) => a.detail)).toEqual([
      { project: 'App', from: 'APP', to: 'MOB' },
      { project: 'App', from: 'MOB', to: 'APP' },
    ]);
  });

  it('members may not open or rename; another account\'s project and a project without the area are 404', async () => {
    expectError(await member.post(`/hub/api/workmgmt/projects/${uuidv7()}/open`, { prefix: 'X' }), 403, 'permission', 'role_forbidden');
    expectError(await member.patch(`/hub/api/workmgmt/projects/${s.acme.projects.site}/prefix`, { prefix: 'X' }), 403, 'permission', 'role_forbidden');
    expectError(await other.post(`/hub/api/workmgmt/projects/${s.acme.projects.blog}/open`, { prefix: 'X' }), 404, 'not_found', 'resource_not_found');
    expectError(await other.patch(`/hub/api/workmgmt/projects/${s.acme.projects.site}/prefix`, { prefix: 'X' }), 404, 'not_found', 'resource_not_found');
    expectError(await owner.post(`/hub/api/workmgmt/projects/${uuidv7()}/open`, { prefix: 'X' }), 404, 'not_found', 'resource_not_found');
    const [{ wm_prefix }] = await t.db.query<{ wm_prefix: string }>('select wm_prefix from projects where id = $1', [s.other.projects.blog]);
    expect(wm_prefix).toBeNull();
  });
});

describe('creating items', () => {
  it('creates an item with every field; /v1 reads it the same', async () => {
    const body = {
      type: 'story', title: '  Pricing page  ', description: '# Build\n\nThe *page*.', status: 'in_progress', assignee: s.acme.users.olivia,
      labels: ['web', 'web', 'launch'], start_date: '2026-11-02', due_date: '2026-11-13', epic_key: 'SITE-1',
      sprint_id: s.acme.sprints.acmes1, linked_documents: [s.acme.items.spec], points: 5,
    };
    const res = await member.post(items(), body);
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({
      key: 'WEB-2', type: 'story', title: 'Pricing page', description: '# Build\n\nThe *page*.', status: 'in_progress',
      assignee: { id: s.acme.users.olivia, name: 'Olivia Lee' }, labels: ['web', 'launch'], start_date: '2026-11-02', due_date: '2026-11-13',
      epic_key: 'WEB-1', sprint_id: s.acme.sprints.acmes1, linked_documents: [{ id: s.acme.items.spec, kind: 'page', title: 'Spec' }], points: 5, history: [],
    });
    expect(item.description_html).toBe('<h1>Build</h1>\n<p>The <em>page</em>.</p>\n');
    const { history: _h, description_html: _html, ...fields } = item;
    const read = (await v1(`/projects/${s.acme.projects.site}/items/WEB-2`)).json();
    expect(read).toEqual({ ...fields, history: [] });
    const minimal = (await member.post(items(), { type: 'bug', title: 'Broken' })).json();
    expect(minimal).toMatchObject({ key: 'WEB-3', status: 'todo', assignee: null, labels: [], epic_key: null, sprint_id: null, points: null, description: '' });
  });

  it('refuses each bad field by name', async () => {
    const bad: Array<[Record<string, unknown>, number, string, string]> = [
      [{ title: 'x' }, 400, 'missing_field', 'type'],
      [{ type: 'saga', title: 'x' }, 422, 'invalid_field', 'type'],
      [{ type: 'task', title: '   ' }, 422, 'invalid_field', 'title'],
      [{ type: 'task', title: 'two\nlines' }, 422, 'invalid_field', 'title'],
      [{ type: 'task', title: 'x'.repeat(501) }, 422, 'invalid_field', 'title'],
      [{ type: 'task', title: 'x', description: 'bell\u0007' }, 422, 'invalid_field', 'description'],
      [{ type: 'task', title: 'x', status: 'blocked' }, 422, 'invalid_field', 'status'],
      [{ type: 'task', title: 'x', assignee: s.other.users.owner }, 422, 'invalid_field', 'assignee'],
      [{ type: 'task', title: 'x', labels: [' '] }, 422, 'invalid_field', 'labels'],
      [{ type: 'task', title: 'x', start_date: '2026-11-10', due_date: '2026-11-09' }, 422, 'invalid_field', 'due_date'],
      [{ type: 'task', title: 'x', due_date: '2026-13-01' }, 422, 'invalid_field', 'due_date'],
      [{ type: 'task', title: 'x', epic_key: 'WEB-99' }, 422, 'invalid_field', 'epic_key'],
      [{ type: 'task', title: 'x', epic_key: 'APP-1' }, 422, 'invalid_field', 'epic_key'],
      [{ type: 'task', title: 'x', epic_key: 'WEB-2' }, 422, 'invalid_field', 'epic_key'],
      [{ type: 'epic', title: 'x', epic_key: 'WEB-1' }, 422, 'invalid_field', 'epic_key'],
      [{ type: 'task', title: 'x', sprint_id: s.acme.sprints.acmes9 }, 422, 'invalid_field', 'sprint_id'],
      [{ type: 'task', title: 'x', sprint_id: s.other.sprints.others1 }, 422, 'invalid_field', 'sprint_id'],
      [{ type: 'task', title: 'x', linked_documents: [s.acme.items.post] }, 422, 'invalid_field', 'linked_documents'],
      [{ type: 'task', title: 'x', linked_documents: [s.acme.items.link] }, 422, 'invalid_field', 'linked_documents'],
      [{ type: 'task', title: 'x', linked_documents: [s.other.items.spec] }, 422, 'invalid_field', 'linked_documents'],
      [{ type: 'task', title: 'x', points: -1 }, 422, 'invalid_field', 'points'],
      [{ type: 'task', title: 'x', points: 2.5 }, 422, 'invalid_field', 'points'],
      [{ type: 'task', title: 'x', rank: 'a' }, 422, 'unknown_field', 'rank'],
    ];
    const before = (await v1(`/projects/${s.acme.projects.site}/items`)).json().data.length;
    for (const [body, status, code, param] of bad) {
      expectError(await member.post(items(), body), status, 'invalid_request', code, param);
    }
    // Nothing written, and no number taken: the next item gets the next key.
    expect((await v1(`/projects/${s.acme.projects.site}/items`)).json().data.length).toBe(before);
    const next = (await member.post(items(), { type: 'task', title: 'After refusals' })).json();
    expect(next.key).toBe(`WEB-${before + 1}`);
  });

  it("another account's project, and a project without the area, are 404", async () => {
    expectError(await other.post(items(), { type: 'task', title: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await member.post(items(s.other.projects.site), { type: 'task', title: 'x' }), 404, 'not_found', 'resource_not_found');
    const plain = await seed(t.db, { ...account('plain'), users: [{ ref: 'u', email: 'u@plain.example', role: 'owner' }], projects: [{ ref: 'p', name: 'P' }] });
    const u = await hubClient(t, { accountId: plain.plain.id, userId: plain.plain.users.u, email: 'u@plain.example' });
    expectError(await u.post(items(plain.plain.projects.p), { type: 'task', title: 'x' }), 404, 'not_found', 'resource_not_found');
  });
});
