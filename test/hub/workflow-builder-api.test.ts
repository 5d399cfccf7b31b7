// The workflow builder's API (/hub/api/workflows, …/definition, …/status, …/schedule,
// /schedule-preview, …/copy, DELETE): a definition problem answers 422 invalid_field with the same
// path and words a fixture gets for the same definition (one table, both sides); export → create
// is the identity; a stale save is 409 workflow_changed; a deleted workflow is gone from /v1 and
// the hub and cannot be started; every change is audited; another account's workflow is 404;
// members build, only owners and admins delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { DefinitionError, validateFixture } from '../../src/fixtures/validate.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { bearer, expectError, ISO_MS, seed } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let member: HubClient;
let owner: HubClient;
let memberB: HubClient;

function acct(ref: string): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    credit_micros: 10_000_000,
    users: [
      { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
      { ref: 'mem', email: `mem@${ref}.example`, role: 'member' },
    ],
    keys: [{ ref: 'main', name: 'main', scopes: ['workflows:read', 'workflows:run'], created_by: 'owner' }],
    projects: [{ ref: 'site', name: 'Website', items: [{ ref: 'about', kind: 'page', title: 'About', text: 'We make things.' }] }],
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, acct('a'), acct('b'));
  member = await hubClient(t, { accountId: S.a.id, userId: S.a.users.mem, email: 'mem@a.example' });
  owner = await hubClient(t, { accountId: S.a.id, userId: S.a.users.owner, email: 'owner@a.example' });
  memberB = await hubClient(t, { accountId: S.b.id, userId: S.b.users.mem, email: 'mem@b.example' });
});
afterAll(() => t?.close());

/** A complete definition (every field given, keys in the export's order). */
function digest(): Record<string, unknown> {
  return {
    name: 'Digest',
    description: 'The weekly digest',
    project_id: S.a.projects.site,
    status: 'draft',
    blocks: [
      { id: 'src', kind: 'source.item', config: { item_id: S.a.items.about } },
      { id: 'agent', kind: 'agent', config: { prompt: 'Summarise {{src}}', max_tokens: 300 } },
      { id: 'tpl', kind: 'transform.template', config: { template: '# Digest\n{{agent}}' } },
      { id: 'ok', kind: 'approval', config: { message: 'Publish it?' } },
      { id: 'out', kind: 'output.project', config: { title: 'Digest' } },
    ],
    edges: [
      { from: 'src', to: 'agent' },
      { from: 'agent', to: 'tpl' },
      { from: 'tpl', to: 'ok' },
      { from: 'ok', to: 'out' },
    ],
    schedule: '0 9 * * 1',
    schedule_timezone: 'Europe/Paris',
  };
}

const create = (body: unknown, as: HubClient = member) => as.post('/hub/api/workflows', body);

async function created(body: unknown = digest()): Promise<{ id: string; updated_at: string; definition: Record<string, unknown> }> {
  const r = await create(body);
  expect(r.statusCode, r.body).toBe(201);
  return r.json();
}

const auditOf = (id: string) =>
  t.db.query<{ action: string; actor_id: string | null; detail: Record<string, unknown> }>(
    `select action, actor_id, detail from audit_log where object_id = $1 order by at, id`,
    [id],
  );

// Definitions that break one rule each, in the builder's format (no project, no item: the same
// body is a fixture's workflow once given a ref).
const src = { id: 'src', kind: 'source.text', config: { text: 'Notes' } };
const agent = (prompt: string) => ({ id: 'ag', kind: 'agent', config: { prompt } });
const BAD: Array<[string, Record<string, unknown>, string, string]> = [
  ['no name', { blocks: [] }, 'name', 'missing (required)'],
  ['an empty name', { name: '  ' }, 'name', 'must not be empty'],
  ['a block that is not an object', { name: 'W', blocks: ['src'] }, 'blocks[0]', 'must be a JSON object'],
  ['a block with an unknown field', { name: 'W', blocks: [{ ...src, label: 'x' }] }, 'blocks[0].label', 'unknown field'],
  ['an unknown kind', { name: 'W', blocks: [src, { id: 'x', kind: 'llm', config: {} }] }, 'blocks[1].kind', '"llm" is not a block kind'],
  ['a duplicate block id', { name: 'W', blocks: [src, src] }, 'blocks[1].id', 'Another block is already called “src”'],
  ['a block id with a space', { name: 'W', blocks: [{ ...src, id: 'my src' }] }, 'blocks[0].id', "letters, digits, '_', '.' or '-'"],
  ['a config that is not an object', { name: 'W', blocks: [{ ...src, config: 'x' }] }, 'blocks[0].config', 'must be a JSON object'],
  ['a missing prompt', { name: 'W', blocks: [{ id: 'ag', kind: 'agent', config: {} }] }, 'blocks[0].config.prompt', 'Write the prompt for this AI block'],
  ['a web source that is not http(s)', { name: 'W', blocks: [{ id: 'w', kind: 'source.web', config: { url: 'ftp://x.example' } }] }, 'blocks[0].config.url', 'must be a web address starting with http:// or https://'],
  ['an unknown config field', { name: 'W', blocks: [{ ...src, config: { text: 'x', colour: 'red' } }] }, 'blocks[0].config.colour', '“colour” is not a setting here'],
  ['an unknown config field that is not a name', { name: 'W', blocks: [{ ...src, config: { text: 'x', 'my colour': 'red' } }] }, 'blocks[0].config["my colour"]', '“my colour” is not a setting here'],
  ['max_tokens 0', { name: 'W', blocks: [src, { id: 'ag', kind: 'agent', config: { prompt: 'p', max_tokens: 0 } }], edges: [{ from: 'src', to: 'ag' }] }, 'blocks[1].config.max_tokens', 'Max tokens must be a whole number from 1 to 100,000'],
  ['a placeholder naming no block', { name: 'W', blocks: [src, agent('Sum {{nope}}')], edges: [{ from: 'src', to: 'ag' }] }, 'blocks[1].config.prompt', 'The prompt uses {{nope}}, but there is no block called “nope”'],
  [
    'a placeholder naming a block that does not feed it',
    { name: 'W', blocks: [src, { id: 'other', kind: 'source.text', config: { text: 'x' } }, { id: 't', kind: 'transform.template', config: { template: '{{other}}' } }], edges: [{ from: 'src', to: 't' }] },
    'blocks[2].config.template',
    '“other” does not feed this block: connect “other” to it',
  ],
  ['a self-loop', { name: 'W', blocks: [src], edges: [{ from: 'src', to: 'src' }] }, 'edges[0]', '“src” is connected to itself'],
  [
    'a cycle',
    { name: 'W', blocks: [src, agent('p'), { id: 't', kind: 'transform.template', config: { template: 'x' } }], edges: [{ from: 'src', to: 'ag' }, { from: 'ag', to: 't' }, { from: 't', to: 'ag' }] },
    'edges[2]',
    'These connections go round in a circle: ag → t → ag',
  ],
  ['an edge to no block', { name: 'W', blocks: [src], edges: [{ from: 'src', to: 'ghost' }] }, 'edges[0].to', 'there is no block called “ghost”'],
  ['an edge from no block', { name: 'W', blocks: [src], edges: [{ from: 'ghost', to: 'src' }] }, 'edges[0].from', 'there is no block called “ghost”'],
  ['a duplicate edge', { name: 'W', blocks: [src, agent('p')], edges: [{ from: 'src', to: 'ag' }, { from: 'src', to: 'ag' }] }, 'edges[1]', '“src” is already connected to “ag”'],
  ['an edge with an unknown field', { name: 'W', blocks: [src, agent('p')], edges: [{ from: 'src', to: 'ag', label: 'x' }] }, 'edges[0].label', 'unknown field'],
  ['a cron expression that cannot run', { name: 'W', schedule: 'every day' }, 'schedule', "The schedule 'every day' is not valid: use five fields, minute hour day month weekday, e.g. '0 9 * * 1' for Mondays at 9:00."],
  ['an unknown time zone', { name: 'W', schedule: '0 9 * * *', schedule_timezone: 'Mars/Olympus' }, 'schedule', "'Mars/Olympus' is not a time zone"],
];

/** The fixture's refusal of the same workflow, with its path inside the workflow. */
function fixtureRefusal(def: Record<string, unknown>): { path: string; detail: string } {
  const fixture = { accounts: [{ ref: 'x', name: 'X', workflows: [{ ref: 'w', ...def }] }] };
  try {
    validateFixture(fixture);
  } catch (err) {
    if (!(err instanceof DefinitionError)) throw err;
    return { path: err.path.replace(/^accounts\[0\]\.workflows\[0\]\./, ''), detail: err.detail };
  }
  throw new Error('the fixture accepted it');
}

describe('happy path', () => {
  it('creates a workflow from a definition (201) and gives it back unchanged: export → create is the identity', async () => {
    const body = digest();
    const r = await created(body);
    expect(Object.keys(r)).toEqual(['id', 'created_at', 'updated_at', 'definition', 'schedule_next', 'project_name']);
    expect(JSON.stringify(r.definition)).toBe(JSON.stringify(body));
    const editor = (await member.get(`/hub/api/workflows/${r.id}/definition`)).json();
    expect(JSON.stringify(editor.definition)).toBe(JSON.stringify(body));
    expect(editor).toMatchObject({ id: r.id, project_name: 'Website' });
    expect(editor.created_at).toMatch(ISO_MS);
    expect(editor.schedule_next).toHaveLength(5);
    // Mondays at 09:00 in Paris: 07:00 or 08:00 UTC, a week apart.
    for (const at of editor.schedule_next) {
      expect(new Date(at).getUTCDay()).toBe(1);
      expect([7, 8]).toContain(new Date(at).getUTCHours());
    }
    const again = await created(editor.definition);
    expect(JSON.stringify(again.definition)).toBe(JSON.stringify(body));
    expect(await auditOf(r.id)).toEqual([{ action: 'workflow.created', actor_id: S.a.users.mem, detail: { name: 'Digest' } }]);
    // /v1 sees it like any other workflow.
    const v1 = await t.app.inject({ method: 'GET', url: `/v1/workflows/${r.id}`, headers: bearer(S.a.keys.main) });
    expect(v1.json()).toMatchObject({ id: r.id, name: 'Digest', status: 'draft', project_id: S.a.projects.site });
  });

  it('fills in the defaults of the fields left out', async () => {
    const r = await created({ name: 'Bare' });
    expect(r.definition).toEqual({ name: 'Bare', description: '', project_id: null, status: 'draft', blocks: [], edges: [], schedule: null, schedule_timezone: 'UTC' });
    expect(r).toMatchObject({ schedule_next: [], project_name: null });
  });

  it('replaces the whole definition (PUT), with or without expected_updated_at', async () => {
    const w = await created();
    const next = { name: 'Renamed', blocks: [src], status: 'active' };
    const r = await member.put(`/hub/api/workflows/${w.id}/definition`, { ...next, expected_updated_at: w.updated_at });
    expect(r.statusCode, r.body).toBe(200);
    const body = r.json();
    expect(body.definition).toEqual({ name: 'Renamed', description: '', project_id: null, status: 'active', blocks: [src], edges: [], schedule: null, schedule_timezone: 'UTC' });
    expect(body.updated_at > w.updated_at).toBe(true);
    expect(body.schedule_next).toEqual([]);
    const again = await member.put(`/hub/api/workflows/${w.id}/definition`, { ...next, name: 'Twice' });
    expect(again.json().definition.name).toBe('Twice');
    expect((await auditOf(w.id)).map((a) => a.action)).toEqual(['workflow.created', 'workflow.updated', 'workflow.updated']);
    expect((await auditOf(w.id))[1].detail).toEqual({ name: 'Renamed', blocks: 1, edges: 0 });
  });

  it('moves the status any way (draft, active, paused), audited with from and to', async () => {
    const w = await created({ name: 'Moves', blocks: [src] });
    for (const status of ['active', 'paused', 'draft', 'paused', 'active']) {
      const r = await member.post(`/hub/api/workflows/${w.id}/status`, { status });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().definition.status).toBe(status);
    }
    const moves = (await auditOf(w.id)).filter((a) => a.action === 'workflow.status_changed').map((a) => a.detail);
    expect(moves).toEqual([
      { from: 'draft', to: 'active' },
      { from: 'active', to: 'paused' },
      { from: 'paused', to: 'draft' },
      { from: 'draft', to: 'paused' },
      { from: 'paused', to: 'active' },
    ]);
    expect((await t.app.inject({ method: 'GET', url: `/v1/workflows/${w.id}`, headers: bearer(S.a.keys.main) })).json().status).toBe('active');
  });

  it('sets and clears the schedule, keeping the time zone when none is given', async () => {
    const w = await created({ name: 'Timed', blocks: [src] });
    const on = await member.put(`/hub/api/workflows/${w.id}/schedule`, { schedule: '30 6 * * *', schedule_timezone: 'America/New_York' });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().definition).toMatchObject({ schedule: '30 6 * * *', schedule_timezone: 'America/New_York' });
    expect(on.json().schedule_next).toHaveLength(5);
    const [row] = await t.db.query<{ schedule_next_at: Date }>('select schedule_next_at from workflows where id = $1', [w.id]);
    expect(row.schedule_next_at.toISOString()).toBe(on.json().schedule_next[0]);
    const hourly = await member.put(`/hub/api/workflows/${w.id}/schedule`, { schedule: '0 * * * *' });
    expect(hourly.json().definition).toMatchObject({ schedule: '0 * * * *', schedule_timezone: 'America/New_York' });
    const off = await member.put(`/hub/api/workflows/${w.id}/schedule`, { schedule: null });
    expect(off.json()).toMatchObject({ definition: { schedule: null }, schedule_next: [] });
    expect((await t.db.query('select schedule_next_at from workflows where id = $1', [w.id]))[0]).toEqual({ schedule_next_at: null });
    const changes = (await auditOf(w.id)).filter((a) => a.action === 'workflow.schedule_changed').map((a) => a.detail);
    expect(changes).toEqual([
      { from: null, to: '30 6 * * *', timezone: 'America/New_York' },
      { from: '30 6 * * *', to: '0 * * * *', timezone: 'America/New_York' },
      { from: '0 * * * *', to: null, timezone: 'America/New_York' },
    ]);
  });

  it('previews the next five times of a cron expression in a time zone', async () => {
    const r = await member.get('/hub/api/schedule-preview?cron=0%209%20*%20*%20*&timezone=Asia/Tokyo');
    expect(r.statusCode, r.body).toBe(200);
    const { next, timezone } = r.json();
    expect(timezone).toBe('Asia/Tokyo');
    expect(next).toHaveLength(5);
    // 09:00 in Tokyo is 00:00 UTC, one day apart.
    for (const [i, at] of next.entries()) {
      expect(at).toMatch(/T00:00:00\.000Z$/);
      if (i > 0) expect(Date.parse(at) - Date.parse(next[i - 1])).toBe(86_400_000);
    }
    expect((await member.get('/hub/api/schedule-preview?cron=*/15%20*%20*%20*%20*')).json().timezone).toBe('UTC');
  });

  it('copies a workflow as a draft named "Copy of …", without its schedule', async () => {
    const w = await created({ ...digest(), status: 'active' });
    const r = await member.post(`/hub/api/workflows/${w.id}/copy`);
    expect(r.statusCode, r.body).toBe(201);
    const copy = r.json();
    expect(copy.id).not.toBe(w.id);
    expect(copy.definition).toEqual({ ...digest(), name: 'Copy of Digest', status: 'draft', schedule: null });
    expect(copy.schedule_next).toEqual([]);
    expect(await auditOf(copy.id)).toEqual([{ action: 'workflow.created', actor_id: S.a.users.mem, detail: { name: 'Copy of Digest', copied_from: w.id } }]);
  });
});

describe('errors', () => {
  it.each(BAD)('%s: the hub answers with the fixture\'s path and words', async (_name, def, path, words) => {
    const fixture = fixtureRefusal(def);
    expect(fixture.path).toBe(path);
    expect(fixture.detail).toContain(words);
    const e = expectError(await create(def), 422, 'invalid_request', 'invalid_field', path);
    expect(e.message).toBe(fixture.detail);
    // The same from a replace.
    const w = await created({ name: 'Target' });
    const put = expectError(await member.put(`/hub/api/workflows/${w.id}/definition`, def), 422, 'invalid_request', 'invalid_field', path);
    expect(put.message).toBe(fixture.detail);
  });

  it('refuses a project or a content item that is not in the account, naming the field', async () => {
    const other = { ...digest(), project_id: S.b.projects.site };
    const e = expectError(await create(other), 422, 'invalid_request', 'invalid_field', 'project_id');
    expect(e.message).toBe(`no project with id "${S.b.projects.site}" in this account`);
    const blocks = [{ id: 'src', kind: 'source.item', config: { item_id: S.b.items.about } }];
    const i = expectError(await create({ name: 'W', blocks }), 422, 'invalid_request', 'invalid_field', 'blocks[0].config.item_id');
    expect(i.message).toBe(`no content item with id "${S.b.items.about}" in this account`);
    // A fixture's item ref is not the builder's format.
    const ref = expectError(await create({ name: 'W', blocks: [{ id: 'src', kind: 'source.item', config: { item: 'about' } }] }), 422, 'invalid_request', 'invalid_field', 'blocks[0].config.item');
    expect(ref.message).toContain('“item” is not a setting here (the settings: item_id); remove it');
    expect(await t.db.query('select 1 from workflows where name = $1', ['W'])).toEqual([]);
  });

  it('refuses unknown body fields and a bad status before the definition is read', async () => {
    expectError(await create({ name: 'W', ref: 'w' }), 422, 'invalid_request', 'unknown_field', 'ref');
    expectError(await create({ name: 'W', status: 'archived' }), 422, 'invalid_request', 'invalid_field', 'status');
    const w = await created({ name: 'W2' });
    expectError(await member.post(`/hub/api/workflows/${w.id}/status`, { status: 'gone' }), 422, 'invalid_request', 'invalid_field', 'status');
    expectError(await member.put(`/hub/api/workflows/${w.id}/schedule`, {}), 400, 'invalid_request', 'missing_field', 'schedule');
  });

  it('answers 409 workflow_changed when the workflow was saved after the version being edited', async () => {
    const w = await created({ name: 'Shared', blocks: [src] });
    const first = await member.put(`/hub/api/workflows/${w.id}/definition`, { name: 'Mine', expected_updated_at: w.updated_at });
    expect(first.statusCode).toBe(200);
    const e = expectError(await owner.put(`/hub/api/workflows/${w.id}/definition`, { name: 'Theirs', expected_updated_at: w.updated_at }), 409, 'conflict', 'workflow_changed');
    expect(e.message).toContain('reload it');
    expect((await member.get(`/hub/api/workflows/${w.id}/definition`)).json().definition.name).toBe('Mine');
    // A status move changes it too.
    const moved = (await member.post(`/hub/api/workflows/${w.id}/status`, { status: 'active' })).json();
    expectError(await owner.put(`/hub/api/workflows/${w.id}/definition`, { name: 'Late', expected_updated_at: first.json().updated_at }), 409, 'conflict', 'workflow_changed');
    expect((await owner.put(`/hub/api/workflows/${w.id}/definition`, { name: 'Fresh', expected_updated_at: moved.updated_at })).statusCode).toBe(200);
  });

  it('refuses a schedule that cannot run, in the definition\'s words', async () => {
    const w = await created({ name: 'Sched', blocks: [src] });
    const e = expectError(await member.put(`/hub/api/workflows/${w.id}/schedule`, { schedule: '61 * * * *' }), 422, 'invalid_request', 'invalid_field', 'schedule');
    expect(e.message).toBe(fixtureRefusal({ name: 'x', schedule: '61 * * * *' }).detail);
    expectError(await member.put(`/hub/api/workflows/${w.id}/schedule`, { schedule: '0 9 * * *', schedule_timezone: 'Nowhere/City' }), 422, 'invalid_request', 'invalid_field', 'schedule');
    expect((await member.get(`/hub/api/workflows/${w.id}/definition`)).json().definition.schedule).toBeNull();
  });

  it('the schedule preview names the parameter at fault', async () => {
    const cron = expectError(await member.get('/hub/api/schedule-preview?cron=nope'), 422, 'invalid_request', 'invalid_field', 'cron');
    expect(cron.message).toBe("The schedule 'nope' is not valid: use five fields, minute hour day month weekday, e.g. '0 9 * * 1' for Mondays at 9:00.");
    expectError(await member.get('/hub/api/schedule-preview?cron=0%209%20*%20*%20*&timezone=Nowhere/City'), 422, 'invalid_request', 'invalid_field', 'timezone');
    expectError(await member.get('/hub/api/schedule-preview?timezone=UTC'), 422, 'invalid_request', 'invalid_field', 'cron');
    expectError(await member.get('/hub/api/schedule-preview?cron=%20'), 422, 'invalid_request', 'invalid_field', 'cron');
  });

  it('answers 404 for an unknown workflow', async () => {
    const id = '00000000-0000-7000-8000-00000000abcd';
    expectError(await member.get(`/hub/api/workflows/${id}/definition`), 404, 'not_found', 'resource_not_found');
    expectError(await member.put(`/hub/api/workflows/${id}/definition`, { name: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await member.post(`/hub/api/workflows/${id}/copy`), 404, 'not_found', 'resource_not_found');
    expectError(await owner.delete(`/hub/api/workflows/${id}`), 404, 'not_found', 'resource_not_found');
  });
});

describe('delete', () => {
  it('takes the workflow out of /v1 and the hub; it cannot be started; its runs stay readable', async () => {
    const w = await created({ ...digest(), status: 'active', blocks: [src], edges: [] });
    const run = await member.post(`/hub/api/workflows/${w.id}/runs`, {});
    expect(run.statusCode, run.body).toBe(202);
    const r = await owner.delete(`/hub/api/workflows/${w.id}`);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ id: w.id, deleted: true });

    const v1 = (url: string, method: 'GET' | 'POST' = 'GET') =>
      t.app.inject({ method, url, headers: { ...bearer(S.a.keys.main), ...(method === 'POST' ? { 'idempotency-key': `del-${w.id}` } : {}) }, ...(method === 'POST' ? { payload: {} } : {}) });
    expectError(await v1(`/v1/workflows/${w.id}`), 404, 'not_found', 'resource_not_found');
    expect((await v1('/v1/workflows?limit=100')).json().data.map((x: { id: string }) => x.id)).not.toContain(w.id);
    // Its runs are read one by one (/v1/runs/{id}, the hub's Runs); the workflow's own run list went with it.
    expectError(await v1(`/v1/workflows/${w.id}/runs`), 404, 'not_found', 'resource_not_found');
    expectError(await v1(`/v1/workflows/${w.id}/runs`, 'POST'), 404, 'not_found', 'resource_not_found');
    expectError(await member.get(`/hub/api/workflows/${w.id}`), 404, 'not_found', 'resource_not_found');
    expectError(await member.get(`/hub/api/workflows/${w.id}/definition`), 404, 'not_found', 'resource_not_found');
    expect((await member.get('/hub/api/workflows?limit=100')).json().data.map((x: { id: string }) => x.id)).not.toContain(w.id);
    expectError(await member.post(`/hub/api/workflows/${w.id}/runs`, {}), 404, 'not_found', 'resource_not_found');
    expectError(await member.put(`/hub/api/workflows/${w.id}/definition`, { name: 'back' }), 404, 'not_found', 'resource_not_found');
    expectError(await owner.delete(`/hub/api/workflows/${w.id}`), 404, 'not_found', 'resource_not_found');
    // Its schedule stopped.
    expect(await t.db.query('select schedule_next_at from workflows where id = $1', [w.id])).toEqual([{ schedule_next_at: null }]);
    // The run it had is still there, on /v1 and in the hub.
    const runId = run.json().id;
    expect((await v1(`/v1/runs/${runId}`)).json()).toMatchObject({ id: runId, workflow_id: w.id });
    expect((await member.get(`/hub/api/runs/${runId}`)).json()).toMatchObject({ id: runId, workflow_id: w.id });
    expect((await member.get('/hub/api/runs?limit=100')).json().data.map((x: { id: string }) => x.id)).toContain(runId);
    expect((await auditOf(w.id)).at(-1)).toEqual({ action: 'workflow.deleted', actor_id: S.a.users.owner, detail: { name: 'Digest' } });
  });
});

describe('security', () => {
  it("another account's workflow is 404 for every builder route", async () => {
    const w = await created();
    expectError(await memberB.get(`/hub/api/workflows/${w.id}/definition`), 404, 'not_found', 'resource_not_found');
    expectError(await memberB.put(`/hub/api/workflows/${w.id}/definition`, { name: 'x' }), 404, 'not_found', 'resource_not_found');
    expectError(await memberB.post(`/hub/api/workflows/${w.id}/status`, { status: 'active' }), 404, 'not_found', 'resource_not_found');
    expectError(await memberB.put(`/hub/api/workflows/${w.id}/schedule`, { schedule: null }), 404, 'not_found', 'resource_not_found');
    expectError(await memberB.post(`/hub/api/workflows/${w.id}/copy`), 404, 'not_found', 'resource_not_found');
    const ownerB = await hubClient(t, { accountId: S.b.id, userId: S.b.users.owner, email: 'owner@b.example' });
    expectError(await ownerB.delete(`/hub/api/workflows/${w.id}`), 404, 'not_found', 'resource_not_found');
    expect((await member.get(`/hub/api/workflows/${w.id}/definition`)).json().definition).toEqual(digest());
    expect((await auditOf(w.id)).map((a) => a.action)).toEqual(['workflow.created']);
  });

  it('members build; only owners and admins delete', async () => {
    const w = await created();
    expectError(await member.delete(`/hub/api/workflows/${w.id}`), 403, 'permission', 'role_forbidden');
    expect((await member.get(`/hub/api/workflows/${w.id}/definition`)).statusCode).toBe(200);
    expect((await owner.delete(`/hub/api/workflows/${w.id}`)).statusCode).toBe(200);
  });
});
