// Sprint planning in the hub (issue 27, part 1): create with a goal, edit while planned, start (one
// active sprint a project), finish with a review that sends the unfinished items to a planned
// sprint or the backlog, each move in the item's history, and /v1's totals and review read after
// it. Security: members plan; another account's project or sprint is 404 like an unknown one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import type { HubClient } from '../helpers/hub.js';
import { bearer, expectError, ISO_MS, seed } from '../http/fixtures.js';
import { workAccount, workClients, type WorkClients } from './work-support.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let c: WorkClients;

const fixture = (ref: string) => workAccount(ref, {
  projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }, { ref: 'app', name: 'App', workmgmt_prefix: 'APP' }, { ref: 'plain', name: 'Plain' }],
  workmgmt: {
    site: {
      sprints: [{ ref: `${ref}old`, name: 'Old', state: 'finished', review: { summary: 'seeded' } }],
      items: [
        { key: 'WEB-1', type: 'story', title: 'Done one', status: 'done', points: 3 },
        { key: 'WEB-2', type: 'story', title: 'Half way', status: 'in_progress', points: 5 },
        { key: 'WEB-3', type: 'task', title: 'Not started' },
        { key: 'WEB-4', type: 'bug', title: 'Done bug', status: 'done' },
      ],
    },
    app: { sprints: [{ ref: `${ref}app`, name: 'App sprint' }] },
  },
});

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, fixture('acme'), fixture('other'));
  c = await workClients(t, s);
});
afterAll(() => t.close());

const sprints = (projectId = s.acme.projects.site) => `/hub/api/workmgmt/projects/${projectId}/sprints`;
const items = `/hub/api/workmgmt/projects/${'{p}'}/items`;
const item = (key: string) => `${items.replace('{p}', s.acme.projects.site)}/${key}`;
const v1 = (path: string) => t.app.inject({ method: 'GET', url: `/v1/workmgmt/projects/${s.acme.projects.site}${path}`, headers: bearer(s.acme.keys.main) });
const v1Sprint = async (id: string) => (await v1('/sprints')).json().data.find((x: { id: string }) => x.id === id);

async function plan(client: HubClient, body: Record<string, unknown>) {
  const res = await client.post(sprints(), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
async function putInSprint(key: string, sprintId: string | null) {
  const current = (await c.member.get(item(key))).json();
  const res = await c.member.patch(item(key), { sprint_id: sprintId, expected_updated_at: current.updated_at });
  expect(res.statusCode, res.body).toBe(200);
}

describe('planning a sprint', () => {
  it('a member creates a planned sprint with a goal; the hub lists it with the goal, /v1 without', async () => {
    const created = await plan(c.member, { name: ' Sprint A ', goal: 'Ship pricing.\nAnd the FAQ.', start_date: '2026-11-02', end_date: '2026-11-13' });
    expect(created).toEqual({
      id: expect.any(String), name: 'Sprint A', goal: 'Ship pricing.\nAnd the FAQ.', state: 'planned', start_date: '2026-11-02', end_date: '2026-11-13',
      totals: { items: 0, done: 0, points: 0, points_done: 0 }, review: null,
    });
    const listed = (await c.member.get(sprints())).json().data.find((x: { id: string }) => x.id === created.id);
    expect(listed).toEqual(created);
    const { goal: _goal, ...v1Shape } = created;
    expect(await v1Sprint(created.id)).toEqual(v1Shape);
  });

  it('owners plan too (every role of the account may)', async () => {
    const sprint = await plan(c.owner, { name: 'By the owner' });
    expect((await c.owner.patch(`${sprints()}/${sprint.id}`, { goal: 'Set by the owner' })).json()).toMatchObject({ goal: 'Set by the owner' });
  });

  it('refuses a bad plan, naming the field', async () => {
    expectError(await c.member.post(sprints(), {}), 400, 'invalid_request', 'missing_field', 'name');
    expectError(await c.member.post(sprints(), { name: '  ' }), 422, 'invalid_request', 'invalid_field', 'name');
    expectError(await c.member.post(sprints(), { name: 'A', goal: 'bad\u0000' }), 422, 'invalid_request', 'invalid_field', 'goal');
    expectError(await c.member.post(sprints(), { name: 'A', start_date: '2026-11-10', end_date: '2026-11-09' }), 422, 'invalid_request', 'invalid_field', 'end_date');
    expectError(await c.member.post(sprints(), { name: 'A', state: 'active' }), 422, 'invalid_request', 'unknown_field', 'state');
  });

  it('edits the plan while planned: the fields sent change, the rest stay', async () => {
    const sprint = await plan(c.sam, { name: 'To edit', goal: 'first', start_date: '2026-12-01' });
    const res = await c.sam.patch(`${sprints()}/${sprint.id}`, { goal: 'second', end_date: '2026-12-12' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'To edit', goal: 'second', start_date: '2026-12-01', end_date: '2026-12-12', state: 'planned' });
    expectError(await c.sam.patch(`${sprints()}/${sprint.id}`, { end_date: '2026-11-30' }), 422, 'invalid_request', 'invalid_field', 'end_date');
  });

  it('another account, an unknown sprint, a sprint of another project and a project without the area are 404', async () => {
    const mine = await plan(c.member, { name: 'Mine' });
    expectError(await c.other.post(sprints(), { name: 'x' }), 404, 'not_found', 'resource_not_found');
    for (const path of [`${sprints()}/${mine.id}`, `${sprints()}/${mine.id}/start`]) {
      expectError(await c.other.request({ method: path.endsWith('start') ? 'POST' : 'PATCH', url: path, payload: {} }), 404, 'not_found', 'resource_not_found');
    }
    expectError(await c.other.post(`${sprints()}/${mine.id}/finish`, { unfinished_to: 'backlog' }), 404, 'not_found', 'resource_not_found');
    expectError(await c.member.post(`${sprints()}/${uuidv7()}/start`), 404, 'not_found', 'resource_not_found');
    expectError(await c.member.post(`${sprints(s.acme.projects.app)}/${mine.id}/start`), 404, 'not_found', 'resource_not_found');
    expectError(await c.member.post(`${sprints(s.other.projects.site)}/${s.other.sprints.otherapp}/start`), 404, 'not_found', 'resource_not_found');
    expectError(await c.member.post(sprints(s.acme.projects.plain), { name: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await c.member.post(`${sprints()}/not-a-uuid/start`), 400, 'invalid_request', 'invalid_id', 'sprint_id');
  });

  it('without a session or the CSRF token nothing is planned', async () => {
    const anon = await t.app.inject({ method: 'POST', url: sprints(), payload: { name: 'x' } });
    expect(anon.statusCode).toBe(401);
    const noCsrf = await c.member.request({ method: 'POST', url: sprints(), payload: { name: 'x' }, headers: { 'x-csrf-token': 'wrong' } });
    expect(noCsrf.statusCode).toBe(403);
  });
});

describe('starting and finishing', () => {
  it('one active sprint a project: starting a second is 409 naming the active one; edits stop once started', async () => {
    const first = await plan(c.member, { name: 'First' });
    const second = await plan(c.member, { name: 'Second' });
    const started = await c.member.post(`${sprints()}/${first.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ id: first.id, state: 'active', review: null });
    const refused = await c.member.post(`${sprints()}/${second.id}/start`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ type: 'conflict', code: 'sprint_state_conflict', resource_id: first.id });
    expectError(await c.member.post(`${sprints()}/${first.id}/start`), 409, 'conflict', 'sprint_state_conflict');
    expectError(await c.member.patch(`${sprints()}/${first.id}`, { name: 'Renamed' }), 409, 'conflict', 'sprint_state_conflict');
    expectError(await c.member.post(`${sprints()}/${second.id}/finish`, { unfinished_to: 'backlog' }), 409, 'conflict', 'sprint_state_conflict');
    // Another project's active sprint is its own business.
    const started2 = await c.member.post(`${sprints(s.acme.projects.app)}/${s.acme.sprints.acmeapp}/start`);
    expect(started2.statusCode, started2.body).toBe(200);

    // Finish the first with its items sent to the second, with the review /v1 reads.
    for (const key of ['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4']) await putInSprint(key, first.id);
    expect((await v1Sprint(first.id)).totals).toEqual({ items: 4, done: 2, points: 8, points_done: 3 });
    expectError(await c.member.post(`${sprints()}/${first.id}/finish`, { unfinished_to: 'sprint' }), 400, 'invalid_request', 'missing_field', 'sprint_id');
    for (const bad of [first.id, s.acme.sprints.acmeold, s.acme.sprints.acmeapp, s.other.sprints.otherold, uuidv7()]) {
      expectError(await c.member.post(`${sprints()}/${first.id}/finish`, { unfinished_to: 'sprint', sprint_id: bad }), 422, 'invalid_request', 'invalid_field', 'sprint_id');
    }
    const res = await c.sam.post(`${sprints()}/${first.id}/finish`, { unfinished_to: 'sprint', sprint_id: second.id, summary: 'Pricing shipped; FAQ slips.' });
    expect(res.statusCode, res.body).toBe(200);
    const review = {
      summary: 'Pricing shipped; FAQ slips.',
      done: { items: 2, points: 3, keys: ['WEB-1', 'WEB-4'] },
      not_done: { items: 2, points: 5, keys: ['WEB-2', 'WEB-3'] },
      unfinished_to: { sprint_id: second.id, name: 'Second' },
      finished_at: expect.stringMatching(ISO_MS),
      finished_by: s.acme.users.sam,
    };
    expect(res.json()).toMatchObject({ state: 'finished', review, totals: { items: 2, done: 2, points: 3, points_done: 3 } });
    expect(await v1Sprint(first.id)).toMatchObject({ state: 'finished', review, totals: { items: 2, done: 2, points: 3, points_done: 3 } });
    expect(await v1Sprint(second.id)).toMatchObject({ state: 'planned', review: null, totals: { items: 2, done: 0, points: 5, points_done: 0 } });
    const history = (await v1('/items/WEB-2')).json().history;
    expect(history.at(-1)).toEqual({ at: expect.stringMatching(ISO_MS), actor: { id: s.acme.users.sam, name: 'Sam' }, kind: 'change', field: 'sprint', from: first.id, to: second.id });
    expect((await v1('/items/WEB-1')).json().history.filter((h: { field?: string }) => h.field === 'sprint')).toHaveLength(1);
    expectError(await c.member.post(`${sprints()}/${first.id}/finish`, { unfinished_to: 'backlog' }), 409, 'conflict', 'sprint_state_conflict');

    // The second starts now that none is active, and finishes into the backlog.
    expect((await c.member.post(`${sprints()}/${second.id}/start`)).statusCode).toBe(200);
    const toBacklog = await c.member.post(`${sprints()}/${second.id}/finish`, { unfinished_to: 'backlog' });
    expect(toBacklog.statusCode, toBacklog.body).toBe(200);
    expect(toBacklog.json()).toMatchObject({
      review: { summary: '', done: { items: 0, points: 0, keys: [] }, not_done: { items: 2, points: 5, keys: ['WEB-2', 'WEB-3'] }, unfinished_to: null },
      totals: { items: 0, done: 0, points: 0, points_done: 0 },
    });
    const backlog = (await v1('/items?status=todo')).json().data.find((i: { key: string }) => i.key === 'WEB-3');
    expect(backlog.sprint_id).toBeNull();
    expect((await v1('/items/WEB-3')).json().history.at(-1)).toMatchObject({ field: 'sprint', from: second.id, to: null });
  });

  it('a deleted item counts nowhere in the review and does not move', async () => {
    const sprint = await plan(c.member, { name: 'With a deleted item' });
    const made = (await c.member.post(items.replace('{p}', s.acme.projects.site), { type: 'task', title: 'Gone soon', sprint_id: sprint.id, points: 8 })).json();
    expect((await c.owner.delete(item(made.key))).statusCode).toBe(204);
    expect((await c.member.post(`${sprints()}/${sprint.id}/start`)).statusCode).toBe(200);
    const res = await c.member.post(`${sprints()}/${sprint.id}/finish`, { unfinished_to: 'backlog' });
    expect(res.json().review).toMatchObject({ done: { items: 0, points: 0, keys: [] }, not_done: { items: 0, points: 0, keys: [] } });
    const [row] = await t.db.query<{ sprint_id: string }>('select sprint_id from wm_items where account_id = $1 and number = $2', [s.acme.id, Number(made.key.slice(4))]);
    expect(row?.sprint_id).toBe(sprint.id);
  });

  it('an edit that started before a finish moved the item is refused as stale', async () => {
    const sprint = await plan(c.member, { name: 'Stale check' });
    await putInSprint('WEB-3', sprint.id);
    const before = (await c.member.get(item('WEB-3'))).json();
    expect((await c.member.post(`${sprints()}/${sprint.id}/start`)).statusCode).toBe(200);
    expect((await c.member.post(`${sprints()}/${sprint.id}/finish`, { unfinished_to: 'backlog' })).statusCode).toBe(200);
    expectError(await c.member.patch(item('WEB-3'), { title: 'x', expected_updated_at: before.updated_at }), 409, 'conflict', 'work_item_changed', 'expected_updated_at');
  });
});
