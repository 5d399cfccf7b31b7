// The backlog's order in the hub (issue 27, part 1): seeded items ranked in file order, new items
// at the end, a move before or after another item (one rank written) and into a sprint or the
// backlog in the same call, order=rank paging, and /v1's list still in key order. Security: members
// move; another account's item, anchor or sprint is unknown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, seed, walkPages } from '../http/fixtures.js';
import { workAccount, workClients, type WorkClients } from './work-support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let c: WorkClients;

const fixture = (ref: string) => workAccount(ref, {
  projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }, { ref: 'app', name: 'App', workmgmt_prefix: 'APP' }],
  workmgmt: {
    site: {
      sprints: [{ ref: `${ref}s1`, name: 'Sprint 1', goal: 'Pricing', state: 'active' }],
      items: [
        { key: 'WEB-3', type: 'task', title: 'Third, first in the file' },
        { key: 'WEB-1', type: 'story', title: 'One' },
        { key: 'WEB-2', type: 'bug', title: 'Two' },
      ],
    },
    app: { items: [{ key: 'APP-1', type: 'task', title: 'App item' }] },
  },
});

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'));
  c = await workClients(t, s);
});
afterAll(() => t.close());

const items = (projectId = s.acme.projects.site) => `/hub/api/workmgmt/projects/${projectId}/items`;
const keys = (body: { data: Array<{ key: string }> }) => body.data.map((i) => i.key);
const byRank = async (query = '') => keys((await c.member.get(`${items()}?order=rank${query}`)).json());
const move = (key: string, body: Record<string, unknown>, client = c.member) => client.post(`${items()}/${key}/move`, body);
const v1 = (path: string) => t.app.inject({ method: 'GET', url: `/v1/workmgmt/projects/${s.acme.projects.site}${path}`, headers: bearer(s.acme.keys.main) });

describe('backlog order', () => {
  it('seeded items are ranked in file order, new ones go to the end; /v1 and the default keep key order', async () => {
    expect(await byRank()).toEqual(['WEB-3', 'WEB-1', 'WEB-2']);
    const created = await c.member.post(items(), { type: 'task', title: 'Fourth' });
    expect(created.statusCode, created.body).toBe(201);
    expect(await byRank()).toEqual(['WEB-3', 'WEB-1', 'WEB-2', 'WEB-4']);
    expect(keys((await c.member.get(items())).json())).toEqual(['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4']);
    expect(keys((await c.member.get(`${items()}?order=key`)).json())).toEqual(['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4']);
    expect(keys((await v1('/items')).json())).toEqual(['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4']);
    expectError(await v1('/items?order=rank'), 400, 'invalid_request', 'unknown_parameter', 'order');
    expectError(await c.member.get(`${items()}?order=title`), 400, 'invalid_request', 'invalid_parameter', 'order');
  });

  it('moves before and after another item, writing no history and keeping updated_at', async () => {
    const before = (await c.member.get(`${items()}/WEB-2`)).json();
    const res = await move('WEB-2', { before: 'WEB-3' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ key: 'WEB-2', updated_at: before.updated_at, history: before.history });
    expect(await byRank()).toEqual(['WEB-2', 'WEB-3', 'WEB-1', 'WEB-4']);
    expect((await move('WEB-2', { after: 'WEB-1' }, c.sam)).statusCode).toBe(200);
    expect(await byRank()).toEqual(['WEB-3', 'WEB-1', 'WEB-2', 'WEB-4']);
    expect((await move('WEB-4', { before: 'WEB-2' })).statusCode).toBe(200);
    expect((await move('WEB-3', { after: 'WEB-4' })).statusCode).toBe(200);
    expect(await byRank()).toEqual(['WEB-1', 'WEB-4', 'WEB-3', 'WEB-2']);
  });

  it('moves into a sprint and back to the backlog in the same call, each with a history entry', async () => {
    const res = await move('WEB-2', { before: 'WEB-1', sprint_id: s.acme.sprints.acmes1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sprint_id).toBe(s.acme.sprints.acmes1);
    expect(res.json().history.at(-1)).toMatchObject({ kind: 'change', field: 'sprint', from: null, to: s.acme.sprints.acmes1, actor: { id: s.acme.users.olivia } });
    expect(await byRank(`&sprint_id=${s.acme.sprints.acmes1}`)).toEqual(['WEB-2']);
    const back = await move('WEB-2', { sprint_id: null });
    expect(back.json()).toMatchObject({ sprint_id: null });
    expect(back.json().history.at(-1)).toMatchObject({ field: 'sprint', from: s.acme.sprints.acmes1, to: null });
    expect(await byRank()).toEqual(['WEB-2', 'WEB-1', 'WEB-4', 'WEB-3']);
  });

  it("a fixture's sprint carries its goal to the hub (and not to /v1)", async () => {
    const hub = (await c.member.get(`/hub/api/workmgmt/projects/${s.acme.projects.site}/sprints`)).json().data[0];
    expect(hub).toMatchObject({ id: s.acme.sprints.acmes1, goal: 'Pricing' });
    expect((await v1('/sprints')).json().data[0]).not.toHaveProperty('goal');
  });

  it('order=rank pages by rank with the cursor it gives', async () => {
    const pages = await walkPages(async (url) => (await c.member.get(url)).json(), `${items()}?order=rank&limit=3`);
    expect(pages).toHaveLength(2);
    expect(pages.flatMap((p) => keys(p))).toEqual(await byRank());
  });
});

describe('refusals', () => {
  it('names the field at fault', async () => {
    expectError(await move('WEB-1', { before: 'WEB-2', after: 'WEB-3' }), 422, 'invalid_request', 'invalid_field', 'after');
    expectError(await move('WEB-1', { before: 'WEB-99' }), 422, 'invalid_request', 'invalid_field', 'before');
    expectError(await move('WEB-1', { after: 'APP-1' }), 422, 'invalid_request', 'invalid_field', 'after');
    expectError(await move('WEB-1', { after: 'WEB-1' }), 422, 'invalid_request', 'invalid_field', 'after');
    expectError(await move('WEB-1', { sprint_id: uuidv7() }), 422, 'invalid_request', 'invalid_field', 'sprint_id');
    expectError(await move('WEB-1', { sprint_id: s.other.sprints.others1 }), 422, 'invalid_request', 'invalid_field', 'sprint_id');
    expectError(await move('WEB-1', { before: 'web-2' }), 422, 'invalid_request', 'invalid_field', 'before');
    expectError(await move('WEB-1', { rank: 'a0' }), 422, 'invalid_request', 'unknown_field', 'rank');
  });

  it('a deleted item is no anchor and cannot move', async () => {
    await c.member.post(items(), { type: 'task', title: 'Doomed' });
    expect((await c.owner.delete(`${items()}/WEB-5`)).statusCode).toBe(204);
    expectError(await move('WEB-1', { after: 'WEB-5' }), 422, 'invalid_request', 'invalid_field', 'after');
    expectError(await move('WEB-5', { after: 'WEB-1' }), 404, 'not_found', 'resource_not_found');
  });

  it("another account's item or project is 404 like an unknown one; no session is 401", async () => {
    expectError(await move('WEB-1', { after: 'WEB-2' }, c.other), 404, 'not_found', 'resource_not_found');
    expectError(await c.member.post(`${items(s.other.projects.site)}/WEB-1/move`, { after: 'WEB-2' }), 404, 'not_found', 'resource_not_found');
    expectError(await move('WEB-77', { after: 'WEB-2' }), 404, 'not_found', 'resource_not_found');
    expectError(await c.other.get(`${items()}?order=rank`), 404, 'not_found', 'resource_not_found');
    const anon = await t.app.inject({ method: 'POST', url: `${items()}/WEB-1/move`, payload: { after: 'WEB-2' } });
    expect(anon.statusCode).toBe(401);
  });
});
