// GET /v1/workflows/{id}/runs and GET /v1/runs/{id}: exact shapes, order, pagination, steps,
// cross-account ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueWorkflowRun as insertRun } from '../../src/queue/enqueue.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, ISO_MS } from '../http/fixtures.js';

let t: TestApp;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
const blocks = [
  { id: 'src', kind: 'source.text', config: { text: 'x' } },
  { id: 'tpl', kind: 'transform.template', config: { template: '{{src}}' } },
];

beforeAll(async () => {
  t = await testApp();
  S = (
    await seedFixture(
      t.db,
      {
        accounts: ['a', 'b'].map((ref) => ({
          ref,
          name: ref,
          credit_micros: 1_000_000,
          users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' }],
          keys: [
            { ref: 'k', name: 'k', scopes: ['workflows:read'] },
            { ref: 'norun', name: 'n', scopes: ['usage:read'] },
          ],
          workflows: [
            { ref: 'wf', name: 'w', blocks, edges: [{ from: 'src', to: 'tpl' }] },
            { ref: 'quiet', name: 'never run', blocks, edges: [{ from: 'src', to: 'tpl' }] },
          ],
        })),
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

const get = (url: string, account = 'a') => t.app.inject({ method: 'GET', url, headers: bearer(S[account].keys.k) });

async function addRun(account: string, trigger: 'api' | 'manual' | 'schedule' | 'chat'): Promise<string> {
  const r = await t.db.transaction((tx) =>
    insertRun(tx, { accountId: S[account].id, workflowId: S[account].workflows.wf, trigger, keyId: null, startDelayMs: 0 }),
  );
  return r.id;
}

describe('list a workflow\'s runs', () => {
  it('lists runs newest first, however started, in the list shape', async () => {
    const ids: string[] = [];
    for (const trig of ['api', 'manual', 'schedule', 'chat'] as const) ids.push(await addRun('a', trig));
    const r = await get(`/v1/workflows/${S.a.workflows.wf}/runs`);
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.has_more).toBe(false);
    expect(body.next_cursor).toBeNull();
    expect(body.data.map((x: { id: string }) => x.id)).toEqual([...ids].reverse());
    expect(body.data.map((x: { trigger: string }) => x.trigger)).toEqual(['chat', 'schedule', 'manual', 'api']);
    const run = body.data[0];
    expect(Object.keys(run).sort()).toEqual(['created_at', 'finished_at', 'id', 'started_at', 'status', 'summary', 'trigger', 'workflow_id']);
    expect(run).toMatchObject({ status: 'queued', summary: 'Queued', started_at: null, finished_at: null, workflow_id: S.a.workflows.wf });
    expect(run.created_at).toMatch(ISO_MS);
  });

  it('pages without duplicates or gaps', async () => {
    for (let i = 0; i < 9; i++) await addRun('a', 'api');
    const all = (await get(`/v1/workflows/${S.a.workflows.wf}/runs?limit=100`)).json().data.map((x: { id: string }) => x.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null } = (
        await get(`/v1/workflows/${S.a.workflows.wf}/runs?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      ).json();
      seen.push(...page.data.map((x) => x.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a cursor of one workflow is refused on another', async () => {
    const c = (await get(`/v1/workflows/${S.a.workflows.wf}/runs?limit=1`)).json().next_cursor;
    expectError(await get(`/v1/workflows/${S.a.workflows.quiet}/runs?cursor=${encodeURIComponent(c)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('a workflow never run has an empty list; unknown and foreign workflows are 404', async () => {
    expect((await get(`/v1/workflows/${S.a.workflows.quiet}/runs`)).json()).toEqual({ data: [], has_more: false, next_cursor: null });
    expectError(await get(`/v1/workflows/${crypto.randomUUID()}/runs`), 404, 'not_found', 'resource_not_found');
    expectError(await get(`/v1/workflows/${S.b.workflows.wf}/runs`), 404, 'not_found', 'resource_not_found');
  });

  it('needs workflows:read', async () => {
    const r = await t.app.inject({ method: 'GET', url: `/v1/workflows/${S.a.workflows.wf}/runs`, headers: bearer(S.a.keys.norun) });
    expect(expectError(r, 403, 'permission', 'insufficient_scope').message).toContain('workflows:read');
  });
});

describe('get a run', () => {
  it('returns the detail shape with billed_micros and steps in the order they ran', async () => {
    const id = await addRun('a', 'api');
    await t.db.query(
      `update workflow_runs set status = 'succeeded', summary = 'Succeeded in 0.1 s', started_at = now(), finished_at = now(), billed_micros = 1234
        where account_id = $1 and id = $2`,
      [S.a.id, id],
    );
    await t.db.query(
      `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, finished_at, ms, error)
       values ($1, $2, 1, 'src', 'source.text', 'succeeded', now(), now(), 3, null),
              ($1, $2, 2, 'tpl', 'transform.template', 'failed', now(), now(), 7, 'boom')`,
      [S.a.id, id],
    );
    const r = await get(`/v1/runs/${id}`);
    expect(r.statusCode).toBe(200);
    const run = r.json();
    expect(Object.keys(run).sort()).toEqual(
      ['billed_micros', 'created_at', 'finished_at', 'id', 'started_at', 'status', 'steps', 'summary', 'trigger', 'workflow_id'].sort(),
    );
    expect(run).toMatchObject({ id, status: 'succeeded', billed_micros: 1234, summary: 'Succeeded in 0.1 s' });
    expect(run.started_at).toMatch(ISO_MS);
    expect(run.finished_at).toMatch(ISO_MS);
    expect(run.steps).toEqual([
      { node_id: 'src', node_kind: 'source.text', status: 'succeeded', ms: 3, error: null },
      { node_id: 'tpl', node_kind: 'transform.template', status: 'failed', ms: 7, error: 'boom' },
    ]);
  });

  it('a running step reports the time elapsed so far', async () => {
    const id = await addRun('a', 'manual');
    await t.db.query(
      `insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, ms)
       values ($1, $2, 1, 'src', 'source.text', 'running', now() - interval '2 seconds', 0)`,
      [S.a.id, id],
    );
    const step = (await get(`/v1/runs/${id}`)).json().steps[0];
    expect(step.status).toBe('running');
    expect(step.ms).toBeGreaterThanOrEqual(2000);
  });

  it('unknown and foreign run ids are 404 resource_not_found alike; a bad id is 400 invalid_id', async () => {
    const foreign = await addRun('b', 'api');
    const a = await get(`/v1/runs/${foreign}`);
    const b = await get(`/v1/runs/${crypto.randomUUID()}`);
    expectError(a, 404, 'not_found', 'resource_not_found');
    expectError(b, 404, 'not_found', 'resource_not_found');
    expect(a.json().error.message).toBe(b.json().error.message);
    expectError(await get('/v1/runs/nope'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await get(`/v1/runs/${crypto.randomUUID()}?x=1`), 400, 'invalid_request', 'unknown_parameter', 'x');
  });
});
