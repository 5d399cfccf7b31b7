// /hub/api/workflows: the list (status, project, last run; filters and cursors) and one workflow
// with its blocks in order, their inputs and its recent runs; no session → 401, another
// account's workflow → 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { enqueueWorkflowRun } from '../../src/queue/enqueue.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, ISO_MS, seed, walkPages } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let hub: HubClient;

const blocks = [
  { id: 'src', kind: 'source.text', config: { text: 'Notes' } },
  { id: 'tpl', kind: 'transform.template', config: { template: 'A: {{src}}' } },
  { id: 'ok', kind: 'approval', config: { message: 'Look' } },
];
const edges = [{ from: 'src', to: 'tpl' }, { from: 'tpl', to: 'ok' }, { from: 'src', to: 'ok' }];

function acct(ref: string): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    users: [{ ref: 'mem', email: `mem@${ref}.example`, role: 'member' }],
    keys: [],
    projects: [{ ref: 'site', name: 'Website' }],
    workflows: [
      { ref: 'main', name: 'Main', status: 'active', project: 'site', blocks, edges },
      { ref: 'draft', name: 'Draft one', status: 'draft', blocks: [] },
      ...Array.from({ length: 6 }, (_, i) => ({ ref: `p${i}`, name: `Paused ${i}`, status: 'paused', blocks, edges })),
    ],
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, acct('a'), acct('b'));
  hub = await hubClient(t, { accountId: S.a.id, userId: S.a.users.mem, email: 'mem@a.example' });
});
afterAll(() => t?.close());

async function addRuns(ref: string, wf: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.db.transaction((tx) =>
      enqueueWorkflowRun(tx, { accountId: S[ref].id, workflowId: S[ref].workflows[wf], trigger: 'manual', keyId: null, startDelayMs: 60_000 }),
    );
    ids.push(r.id);
  }
  return ids;
}

describe('GET /hub/api/workflows', () => {
  it('lists the account\'s workflows with project, block count and last run', async () => {
    const [run] = (await addRuns('a', 'main', 1)).reverse();
    const r = await hub.get('/hub/api/workflows?limit=100');
    expect(r.statusCode).toBe(200);
    const list = r.json().data;
    expect(list).toHaveLength(8);
    const main = list.find((w: { id: string }) => w.id === S.a.workflows.main);
    expect(main).toMatchObject({ name: 'Main', status: 'active', project_id: S.a.projects.site, project_name: 'Website', block_count: 3 });
    expect(main.last_run).toMatchObject({ id: run, status: 'queued' });
    expect(main.last_run.at).toMatch(ISO_MS);
    expect(list.find((w: { id: string }) => w.id === S.a.workflows.draft)).toMatchObject({ project_name: null, block_count: 0, last_run: null });
    expect(list.every((w: { id: string }) => Object.values(S.a.workflows).includes(w.id))).toBe(true);
  });

  it('filters by status and project, and pages', async () => {
    const paused = (await hub.get('/hub/api/workflows?status=paused')).json().data;
    expect(paused).toHaveLength(6);
    const inSite = (await hub.get(`/hub/api/workflows?project_id=${S.a.projects.site}`)).json().data;
    expect(inSite.map((w: { id: string }) => w.id)).toEqual([S.a.workflows.main]);
    const pages = await walkPages((q) => hub.get(`/hub/api/workflows${q}`).then((x) => x.json()), '?limit=3');
    expect(pages).toHaveLength(3);
    expect(new Set(pages.flatMap((p) => p.data.map((w: { id: string }) => w.id))).size).toBe(8);
    expectError(await hub.get('/hub/api/workflows?status=gone'), 400, 'invalid_request', 'invalid_parameter', 'status');
  });
});

describe('GET /hub/api/workflows/{id}', () => {
  it('gives the blocks in order with their inputs, and the newest runs', async () => {
    const ids = await addRuns('a', 'p0', 12);
    const r = await hub.get(`/hub/api/workflows/${S.a.workflows.p0}`);
    expect(r.statusCode).toBe(200);
    const wf = r.json();
    expect(wf).toMatchObject({ id: S.a.workflows.p0, name: 'Paused 0', status: 'paused', schedule: null, block_count: 3, more_runs: true });
    expect(wf.blocks).toEqual([
      { id: 'src', kind: 'source.text', config: { text: 'Notes' }, inputs: [] },
      { id: 'tpl', kind: 'transform.template', config: { template: 'A: {{src}}' }, inputs: ['src'] },
      { id: 'ok', kind: 'approval', config: { message: 'Look' }, inputs: ['tpl', 'src'] },
    ]);
    expect(wf.recent_runs.map((x: { id: string }) => x.id)).toEqual(ids.reverse().slice(0, 10));
    expect(wf.recent_runs[0]).toMatchObject({ workflow_name: 'Paused 0', trigger: 'manual', status: 'queued' });
  });

  it('a workflow with no runs and no blocks', async () => {
    const wf = (await hub.get(`/hub/api/workflows/${S.a.workflows.draft}`)).json();
    expect(wf).toMatchObject({ blocks: [], recent_runs: [], more_runs: false, last_run: null });
  });

  it('another account\'s workflow or an unknown id → 404; a malformed id → 400', async () => {
    expectError(await hub.get(`/hub/api/workflows/${S.b.workflows.main}`), 404, 'not_found', 'resource_not_found');
    expectError(await hub.get('/hub/api/workflows/00000000-0000-4000-8000-000000000000'), 404, 'not_found', 'resource_not_found');
    expectError(await hub.get('/hub/api/workflows/nope'), 400, 'invalid_request', 'invalid_id', 'id');
    const b = (await hub.get(`/hub/api/workflows?project_id=${S.b.projects.site}`)).json();
    expect(b.data).toEqual([]);
  });

  it('no session → 401 not_signed_in', async () => {
    for (const url of ['/hub/api/workflows', `/hub/api/workflows/${S.a.workflows.main}`]) {
      expectError(await t.app.inject({ method: 'GET', url }), 401, 'authentication', 'not_signed_in');
    }
  });
});
