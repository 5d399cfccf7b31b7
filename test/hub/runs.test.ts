// /hub/api/runs and the moves: "Run now" through the real engine (the built-in local model), the
// run page's outputs and approval draft, approve / reject / cancel with their audit entries, the
// list's filters and cursors, and the security of every route (no session, CSRF, Origin, other
// account's ids).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsCommand } from '../../src/cli/runs.js';
import { Engine } from '../../src/engine/engine.js';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import { createBilling } from '../../src/engine/billing/index.js';
import { createProviders } from '../../src/engine/providers/index.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { enqueueWorkflowRun } from '../../src/queue/enqueue.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, ISO_MS, seed, walkPages } from '../http/fixtures.js';

let t: TestApp;
let engine: Engine;
let S: Record<string, AccountSeedResult>;
let hub: HubClient;
let hubB: HubClient;
let hubBroke: HubClient;

const SOURCE = 'Shipped the pricing page. Fixed checkout.';

function acct(ref: string, credit: number): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    credit_micros: credit,
    users: [
      { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
      { ref: 'mem', email: `mem@${ref}.example`, role: 'member', name: 'Mia Member' },
    ],
    keys: [],
    projects: [{ ref: 'site', name: 'Site' }],
    workflows: [
      {
        ref: 'chain',
        name: 'Digest',
        status: 'active',
        project: 'site',
        blocks: [
          { id: 'src', kind: 'source.text', config: { text: SOURCE } },
          { id: 'write', kind: 'agent', config: { prompt: 'Summarise: {{src}}', max_tokens: 50 } },
          { id: 'page', kind: 'output.project', config: { title: 'Digest' } },
        ],
        edges: [{ from: 'src', to: 'write' }, { from: 'write', to: 'page' }],
      },
      {
        ref: 'appr',
        name: 'Needs a yes',
        status: 'active',
        blocks: [
          { id: 'draft', kind: 'source.text', config: { text: 'Dear customer, the draft.' } },
          { id: 'ok', kind: 'approval', config: { message: 'Check the tone' } },
          { id: 'final', kind: 'transform.template', config: { template: 'Sent: {{ok}}' } },
        ],
        edges: [{ from: 'draft', to: 'ok' }, { from: 'ok', to: 'final' }],
      },
      { ref: 'empty', name: 'Nothing yet', blocks: [] },
    ],
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, acct('a', 10_000_000), acct('b', 10_000_000), acct('broke', 0));
  const config = { ...t.config, engine: { ...t.config.engine, pollMs: 30 } };
  engine = new Engine({ db: t.db, config, blocks: createBlockRegistry(config), providers: createProviders(config), billing: createBilling(t.db), stopGraceMs: 200 });
  await engine.start();
  const as = (ref: string) => hubClient(t, { accountId: S[ref].id, userId: S[ref].users.mem, email: `mem@${ref}.example` });
  hub = await as('a');
  hubB = await as('b');
  hubBroke = await as('broke');
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function runNow(c: HubClient, workflowId: string): Promise<string> {
  const r = await c.post(`/hub/api/workflows/${workflowId}/runs`);
  expect(r.statusCode, r.body).toBe(202);
  return r.json().id;
}

async function waitFor(runId: string, want: (s: string) => boolean): Promise<Record<string, any>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const run = (await hub.get(`/hub/api/runs/${runId}`)).json();
    if (want(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run never got there: ${JSON.stringify(run)}`);
    await sleep(40);
  }
}

/** A queued run no worker will claim for a minute (to cancel it while it waits). */
async function parkedRun(accountRef: string, wf = 'chain', trigger: 'api' | 'manual' | 'schedule' = 'api'): Promise<string> {
  const r = await t.db.transaction((tx) =>
    enqueueWorkflowRun(tx, { accountId: S[accountRef].id, workflowId: S[accountRef].workflows[wf], trigger, keyId: null, startDelayMs: 60_000 }),
  );
  return r.id;
}

async function audit(runId: string): Promise<{ action: string; actor_id: string; actor_label: string }[]> {
  return t.db.query(`select action, actor_id, actor_label from audit_log where object_kind = 'run' and object_id = $1 order by at, id`, [runId]);
}

describe('Run now → the run page', () => {
  it('starts a manual run that finishes, with each block\'s output, the page as HTML, who started it and an audit entry', async () => {
    const id = await runNow(hub, S.a.workflows.chain);
    const run = await waitFor(id, (s) => s === 'succeeded');
    expect(run).toMatchObject({ id, workflow_id: S.a.workflows.chain, workflow_name: 'Digest', trigger: 'manual', final: true, approval: null });
    expect(run.started_by).toBe('Mia Member <mem@a.example>');
    expect(run.created_at).toMatch(ISO_MS);
    expect(run.duration_ms).toBeGreaterThanOrEqual(0);
    expect(run.billed_micros).toBeGreaterThan(0);
    expect(run.steps.map((s: { node_id: string; status: string }) => [s.node_id, s.status])).toEqual([['src', 'succeeded'], ['write', 'succeeded'], ['page', 'succeeded']]);
    const [src, write, page] = run.steps;
    expect(src.output).toEqual({ text: SOURCE, html: null, item_id: null });
    expect(write.output.text.length).toBeGreaterThan(0);
    expect(write.output.html).toBeNull();
    expect(page.output.item_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.output.html).toContain('<');
    // The local (development) model wrote `write`, as its stored output records: the page labels it.
    expect([src, write, page].map((s: { development_ai: boolean }) => s.development_ai)).toEqual([false, true, false]);
    expect(await audit(id)).toEqual([{ action: 'run.started', actor_id: S.a.users.mem, actor_label: 'Mia Member <mem@a.example>' }]);
  });

  it('a run awaiting approval shows the draft to approve; approve → it continues and succeeds', async () => {
    const id = await runNow(hub, S.a.workflows.appr);
    const waiting = await waitFor(id, (s) => s === 'awaiting_approval');
    expect(waiting.final).toBe(false);
    expect(waiting.approval).toEqual({ node_id: 'ok', message: 'Check the tone', output: { text: 'Dear customer, the draft.', html: null, item_id: null } });
    expect(waiting.steps.find((s: { node_id: string }) => s.node_id === 'ok').status).toBe('awaiting');

    const r = await hub.post(`/hub/api/runs/${id}/approve`);
    expect(r.statusCode).toBe(200);
    expect(['running', 'succeeded']).toContain(r.json().status);
    expect(r.json().approval).toBeNull();
    const done = await waitFor(id, (s) => s === 'succeeded');
    expect(done.steps.at(-1).output.text).toBe('Sent: Dear customer, the draft.');
    expect((await audit(id)).map((a) => a.action)).toEqual(['run.started', 'run.approved']);
  });

  it('reject ends it rejected; approving or rejecting again is 409 run_not_awaiting_approval, cancelling is 409 run_already_final', async () => {
    const id = await runNow(hub, S.a.workflows.appr);
    await waitFor(id, (s) => s === 'awaiting_approval');
    const r = await hub.post(`/hub/api/runs/${id}/reject`, {});
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: 'rejected', final: true, approval: null });
    expectError(await hub.post(`/hub/api/runs/${id}/approve`), 409, 'conflict', 'run_not_awaiting_approval');
    expectError(await hub.post(`/hub/api/runs/${id}/reject`), 409, 'conflict', 'run_not_awaiting_approval');
    expectError(await hub.post(`/hub/api/runs/${id}/cancel`), 409, 'conflict', 'run_already_final');
    expect((await audit(id)).map((a) => a.action)).toEqual(['run.started', 'run.rejected']);
  });

  it('cancel ends a queued run; a queued run cannot be approved', async () => {
    const id = await parkedRun('a');
    expectError(await hub.post(`/hub/api/runs/${id}/approve`), 409, 'conflict', 'run_not_awaiting_approval');
    const r = await hub.post(`/hub/api/runs/${id}/cancel`);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ id, status: 'cancelled', final: true, summary: 'Cancelled' });
    expect(await audit(id)).toEqual([{ action: 'run.cancelled', actor_id: S.a.users.mem, actor_label: 'Mia Member <mem@a.example>' }]);
  });

  it('the operator\'s cancel goes through the same service and is audited as the operator\'s', async () => {
    const id = await parkedRun('a');
    expect((await runsCommand(t.db, ['cancel', id])).code).toBe(0);
    const [entry] = await t.db.query<{ action: string; actor_kind: string; actor_id: string | null }>(
      `select action, actor_kind, actor_id from audit_log where object_id = $1`,
      [id],
    );
    expect(entry).toEqual({ action: 'run.cancelled', actor_kind: 'operator', actor_id: null });
    expectError(await hub.post(`/hub/api/runs/${id}/cancel`), 409, 'conflict', 'run_already_final');
  });

  it('refuses a workflow with no blocks (422), an unknown one (404), and an account out of credit (402, no run)', async () => {
    expectError(await hub.post(`/hub/api/workflows/${S.a.workflows.empty}/runs`), 422, 'invalid_request', 'workflow_empty');
    expectError(await hub.post(`/hub/api/workflows/00000000-0000-4000-8000-000000000000/runs`), 404, 'not_found', 'resource_not_found');
    expectError(await hubBroke.post(`/hub/api/workflows/${S.broke.workflows.chain}/runs`), 402, 'insufficient_credit', 'account_out_of_credit');
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from workflow_runs where account_id = $1', [S.broke.id]);
    expect(n).toBe(0);
  });

  it('validates ids and bodies', async () => {
    expectError(await hub.get('/hub/api/runs/not-a-uuid'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await hub.post(`/hub/api/runs/${await parkedRun('a')}/cancel`, { why: 'x' }), 422, 'invalid_request', 'unknown_field', 'why');
    expectError(await hub.get('/hub/api/runs/00000000-0000-4000-8000-000000000000'), 404, 'not_found', 'resource_not_found');
  });
});

describe('GET /hub/api/runs', () => {
  it('lists every run of the account newest first in the list shape, with filters', async () => {
    const sched = await parkedRun('a', 'appr', 'schedule');
    const all = (await hub.get('/hub/api/runs?limit=100')).json();
    expect(all.data[0].id).toBe(sched);
    expect(Object.keys(all.data[0]).sort()).toEqual(
      ['created_at', 'duration_ms', 'finished_at', 'id', 'started_at', 'status', 'summary', 'trigger', 'workflow_id', 'workflow_name'].sort(),
    );
    const created = all.data.map((r: { created_at: string }) => r.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(all.data.every((r: { workflow_id: string }) => Object.values(S.a.workflows).includes(r.workflow_id))).toBe(true);

    const byWf = (await hub.get(`/hub/api/runs?workflow_id=${S.a.workflows.appr}`)).json().data;
    expect(byWf.length).toBeGreaterThan(0);
    expect(byWf.every((r: { workflow_name: string }) => r.workflow_name === 'Needs a yes')).toBe(true);
    const bySched = (await hub.get('/hub/api/runs?trigger=schedule')).json().data;
    expect(bySched.map((r: { id: string }) => r.id)).toEqual([sched]);
    const cancelled = (await hub.get('/hub/api/runs?status=cancelled&trigger=api')).json().data;
    expect(cancelled.length).toBeGreaterThan(0);
    expect(cancelled.every((r: { status: string; trigger: string }) => r.status === 'cancelled' && r.trigger === 'api')).toBe(true);
    expectError(await hub.get('/hub/api/runs?status=done'), 400, 'invalid_request', 'invalid_parameter', 'status');
    expectError(await hub.get('/hub/api/runs?colour=red'), 400, 'invalid_request', 'unknown_parameter', 'colour');
  });

  it('pages without gaps or duplicates; a cursor is bound to its filters', async () => {
    for (let i = 0; i < 5; i++) await parkedRun('a');
    const all = (await hub.get('/hub/api/runs?limit=100')).json().data.map((r: { id: string }) => r.id);
    const pages = await walkPages((q) => hub.get(`/hub/api/runs${q}`).then((r) => r.json()), '?limit=3');
    expect(pages.flatMap((p) => p.data.map((r: { id: string }) => r.id))).toEqual(all);
    expect(pages.at(-1)!.has_more).toBe(false);
    const cursor = pages[0].next_cursor!;
    expectError(await hub.get(`/hub/api/runs?limit=3&trigger=api&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it('never shows another account\'s runs', async () => {
    const theirs = await parkedRun('b');
    const mine = (await hub.get('/hub/api/runs?limit=100')).json().data.map((r: { id: string }) => r.id);
    expect(mine).not.toContain(theirs);
    expect((await hub.get(`/hub/api/runs?workflow_id=${S.b.workflows.chain}`)).json().data).toEqual([]);
  });
});

describe('security', () => {
  it('no session → 401 not_signed_in on every route', async () => {
    const run = await parkedRun('a');
    for (const [method, url] of [
      ['GET', '/hub/api/runs'],
      ['GET', `/hub/api/runs/${run}`],
      ['POST', `/hub/api/workflows/${S.a.workflows.chain}/runs`],
      ['POST', `/hub/api/runs/${run}/approve`],
      ['POST', `/hub/api/runs/${run}/reject`],
      ['POST', `/hub/api/runs/${run}/cancel`],
    ] as const) {
      expectError(await t.app.inject({ method, url }), 401, 'authentication', 'not_signed_in');
    }
  });

  it('another account\'s run or workflow → 404, and nothing changes', async () => {
    const theirs = await parkedRun('b');
    expectError(await hub.get(`/hub/api/runs/${theirs}`), 404, 'not_found', 'resource_not_found');
    for (const move of ['approve', 'reject', 'cancel']) {
      expectError(await hub.post(`/hub/api/runs/${theirs}/${move}`), 404, 'not_found', 'resource_not_found');
    }
    expectError(await hub.post(`/hub/api/workflows/${S.b.workflows.chain}/runs`), 404, 'not_found', 'resource_not_found');
    expect((await hubB.get(`/hub/api/runs/${theirs}`)).json().status).toBe('queued');
  });

  it('a state change without the CSRF token or from a foreign Origin → 403 csrf_failed', async () => {
    const run = await parkedRun('a');
    const url = `/hub/api/runs/${run}/cancel`;
    expectError(await hub.request({ method: 'POST', url, headers: { 'x-csrf-token': '' } }), 403, 'permission', 'csrf_failed');
    expectError(await hub.request({ method: 'POST', url, headers: { origin: 'https://evil.example' } }), 403, 'permission', 'csrf_failed');
    expectError(
      await hub.request({ method: 'POST', url: `/hub/api/workflows/${S.a.workflows.chain}/runs`, headers: { origin: 'https://evil.example' } }),
      403,
      'permission',
      'csrf_failed',
    );
    expect((await hub.get(`/hub/api/runs/${run}`)).json().status).toBe('queued');
  });
});
