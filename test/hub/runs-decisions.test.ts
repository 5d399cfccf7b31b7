// The run page's additions (issue 25): what a run made and its time as work and waiting, approve
// with an edit and reject with a reason (limits, replays, roles), the awaiting-approval count, and
// the security of each route (signed out, CSRF, another account's ids). "Run again" (a retry) is
// runs-retry.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import { createBilling } from '../../src/engine/billing/index.js';
import { createProviders } from '../../src/engine/providers/index.js';
import { MAX_APPROVED_TEXT, MAX_REJECT_REASON } from '../../src/domain/workflow.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { enqueueWorkflowRun } from '../../src/queue/enqueue.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let engine: Engine;
let S: Record<string, AccountSeedResult>;
let mem: HubClient;
let admin: HubClient;
let memB: HubClient;

const DRAFT = 'Dear customer, the draft.';

function acct(ref: string, credit: number): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    credit_micros: credit,
    users: [
      { ref: 'owner', email: `owner@${ref}.example`, role: 'owner' },
      { ref: 'admin', email: `admin@${ref}.example`, role: 'admin', name: 'Ada Admin' },
      { ref: 'mem', email: `mem@${ref}.example`, role: 'member', name: 'Mia Member' },
    ],
    keys: [],
    projects: [{ ref: 'site', name: 'Site' }],
    workflows: [
      {
        ref: 'appr',
        name: 'Needs a yes',
        status: 'active',
        project: 'site',
        blocks: [
          { id: 'draft', kind: 'source.text', config: { text: DRAFT } },
          { id: 'ok', kind: 'approval', config: { message: 'Check the tone' } },
          { id: 'page', kind: 'output.project', config: { title: 'Approved page' } },
        ],
        edges: [{ from: 'draft', to: 'ok' }, { from: 'ok', to: 'page' }],
      },
      { ref: 'plain', name: 'Plain', blocks: [{ id: 'src', kind: 'source.text', config: { text: 'hi' } }] },
    ],
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, acct('a', 10_000_000), acct('b', 10_000_000));
  const config = { ...t.config, engine: { ...t.config.engine, pollMs: 30 } };
  engine = new Engine({ db: t.db, config, blocks: createBlockRegistry(config), providers: createProviders(config), billing: createBilling(t.db), stopGraceMs: 200 });
  await engine.start();
  const as = (ref: string, user: 'mem' | 'admin') => hubClient(t, { accountId: S[ref].id, userId: S[ref].users[user], email: `${user}@${ref}.example` });
  mem = await as('a', 'mem');
  admin = await as('a', 'admin');
  memB = await as('b', 'mem');
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitFor(c: HubClient, runId: string, want: (s: string) => boolean): Promise<Record<string, any>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = (await c.get(`/hub/api/runs/${runId}`)).json();
    if (want(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run never got there: ${JSON.stringify(run)}`);
    await sleep(40);
  }
}

async function awaiting(c: HubClient = mem): Promise<string> {
  const r = await c.post(`/hub/api/workflows/${c === memB ? S.b.workflows.appr : S.a.workflows.appr}/runs`);
  expect(r.statusCode, r.body).toBe(202);
  await waitFor(c, r.json().id, (s) => s === 'awaiting_approval');
  return r.json().id;
}

/** A queued run no worker claims for a minute, cancelled: a final run. */
async function cancelledRun(ref: string, wf = 'plain', trigger: 'api' | 'schedule' = 'schedule'): Promise<string> {
  const r = await t.db.transaction((tx) =>
    enqueueWorkflowRun(tx, { accountId: S[ref].id, workflowId: S[ref].workflows[wf], trigger, keyId: null, startDelayMs: 60_000 }),
  );
  await t.db.query(`update workflow_runs set status = 'cancelled', finished_at = now() where id = $1`, [r.id]);
  return r.id;
}

const audit = (runId: string) =>
  t.db.query<{ action: string; actor_id: string; detail: Record<string, unknown> }>(
    `select action, actor_id, detail from audit_log where object_kind = 'run' and object_id = $1 order by at, id`,
    [runId],
  );

describe('approve with an edit → the run goes on with it; the page links what it made', () => {
  it('records both texts, shows who decided, the time as work and waiting, and the page it saved', async () => {
    const id = await awaiting();
    const waiting = (await mem.get(`/hub/api/runs/${id}`)).json();
    expect(waiting.approval_wait_ms).toBeGreaterThanOrEqual(0);
    expect((await mem.get('/hub/api/runs/awaiting')).json().awaiting_approval).toBeGreaterThanOrEqual(1);
    await sleep(300); // a wait long enough to measure: the run page says how long it waited
    const r = await admin.post(`/hub/api/runs/${id}/approve`, { text: 'The edited text.' });
    expect(r.statusCode, r.body).toBe(200);
    const done = await waitFor(mem, id, (s) => s === 'succeeded');
    const ok = done.steps.find((s: { node_id: string }) => s.node_id === 'ok');
    expect(ok.output.text).toBe('The edited text.');
    expect(ok.decision).toMatchObject({ outcome: 'approved', decided_by: 'Ada Admin', original_text: DRAFT, reason: null });
    expect(done.approval_wait_ms).toBeGreaterThanOrEqual(300);
    expect(done.work_ms).toBe(done.steps.reduce((n: number, s: { ms: number }) => n + s.ms, 0));
    expect(done.made).toHaveLength(1);
    expect(done.made[0]).toMatchObject({ node_id: 'page', kind: 'page', title: 'Approved page' });
    const [item] = await t.db.query<{ text: string }>(`select text from content_items where id = $1`, [done.made[0].item_id]);
    expect(item.text).toContain('The edited text.');
    expect((await audit(id)).map((a) => [a.action, a.detail.edited ?? null])).toEqual([['run.started', null], ['run.approved', true]]);
  });

  it('approving without a body or with {} goes on with the draft as it stood', async () => {
    const id = await awaiting();
    expect((await mem.post(`/hub/api/runs/${id}/approve`, {})).statusCode).toBe(200);
    const done = await waitFor(mem, id, (s) => s === 'succeeded');
    const ok = done.steps.find((s: { node_id: string }) => s.node_id === 'ok');
    expect(ok.output.text).toBe(DRAFT);
    expect(ok.decision).toMatchObject({ outcome: 'approved', decided_by: 'Mia Member', original_text: null });
  });

  it('refuses an oversized edit, a malformed body and unknown fields; nothing moves', async () => {
    const id = await awaiting();
    expectError(await mem.post(`/hub/api/runs/${id}/approve`, { text: 'x'.repeat(MAX_APPROVED_TEXT + 1) }), 422, 'invalid_request', 'invalid_field', 'text');
    expectError(await mem.post(`/hub/api/runs/${id}/approve`, { text: 42 }), 422, 'invalid_request', 'invalid_field', 'text');
    expectError(await mem.post(`/hub/api/runs/${id}/approve`, { text: 'ok', colour: 'red' }), 422, 'invalid_request', 'unknown_field', 'colour');
    expectError(await mem.post(`/hub/api/runs/${id}/reject`, { reason: 'x'.repeat(MAX_REJECT_REASON + 1) }), 422, 'invalid_request', 'invalid_field', 'reason');
    expect((await mem.get(`/hub/api/runs/${id}`)).json().status).toBe('awaiting_approval');
    // Cleaned up so later counts are exact.
    expect((await mem.post(`/hub/api/runs/${id}/cancel`)).statusCode).toBe(200);
  });

  it('approving twice (a replay) is 409 run_not_awaiting_approval, and the first edit stands', async () => {
    const id = await awaiting();
    expect((await mem.post(`/hub/api/runs/${id}/approve`, { text: 'First.' })).statusCode).toBe(200);
    expectError(await mem.post(`/hub/api/runs/${id}/approve`, { text: 'Second.' }), 409, 'conflict', 'run_not_awaiting_approval');
    const done = await waitFor(mem, id, (s) => s === 'succeeded');
    expect(done.steps.find((s: { node_id: string }) => s.node_id === 'ok').output.text).toBe('First.');
  });
});

describe('reject with a reason', () => {
  it('keeps the reason and who rejected; shows it on the run; a run not awaiting is 409', async () => {
    const id = await awaiting();
    const r = await mem.post(`/hub/api/runs/${id}/reject`, { reason: 'Too formal.' });
    expect(r.statusCode, r.body).toBe(200);
    const ok = r.json().steps.find((s: { node_id: string }) => s.node_id === 'ok');
    expect(ok.decision).toMatchObject({ outcome: 'rejected', decided_by: 'Mia Member', reason: 'Too formal.', original_text: null });
    expect(r.json().can_retry).toBe(true);
    expectError(await mem.post(`/hub/api/runs/${id}/reject`, { reason: 'again' }), 409, 'conflict', 'run_not_awaiting_approval');
    expect((await audit(id)).at(-1)!.detail).toMatchObject({ reason: 'Too formal.' });
  });
});

describe('GET /hub/api/runs/awaiting', () => {
  it('counts this account\'s runs awaiting approval only, for members and admins alike', async () => {
    const before = (await mem.get('/hub/api/runs/awaiting')).json().awaiting_approval;
    const id = await awaiting();
    expect((await admin.get('/hub/api/runs/awaiting')).json()).toEqual({ awaiting_approval: before + 1 });
    const theirs = await awaiting(memB);
    expect((await mem.get('/hub/api/runs/awaiting')).json()).toEqual({ awaiting_approval: before + 1 });
    await mem.post(`/hub/api/runs/${id}/cancel`);
    await memB.post(`/hub/api/runs/${theirs}/cancel`);
    expect((await mem.get('/hub/api/runs/awaiting')).json()).toEqual({ awaiting_approval: before });
  });
});

describe('security', () => {
  it('signed out → 401 on every new route', async () => {
    const run = await cancelledRun('a');
    for (const [method, url] of [
      ['GET', '/hub/api/runs/awaiting'],
      ['POST', `/hub/api/runs/${run}/approve`],
      ['POST', `/hub/api/runs/${run}/reject`],
    ] as const) {
      expectError(await t.app.inject({ method, url, payload: {} }), 401, 'authentication', 'not_signed_in');
    }
  });

  it('another account\'s run → 404 for approve with an edit, reject with a reason; nothing changes', async () => {
    const theirs = await awaiting(memB);
    expectError(await mem.post(`/hub/api/runs/${theirs}/approve`, { text: 'hijacked' }), 404, 'not_found', 'resource_not_found');
    expectError(await mem.post(`/hub/api/runs/${theirs}/reject`, { reason: 'no' }), 404, 'not_found', 'resource_not_found');
    expect((await memB.get(`/hub/api/runs/${theirs}`)).json().status).toBe('awaiting_approval');
    await memB.post(`/hub/api/runs/${theirs}/cancel`);
  });

  it('without the CSRF token or from a foreign Origin → 403 csrf_failed', async () => {
    const run = await cancelledRun('a');
    for (const headers of [{ 'x-csrf-token': '' }, { origin: 'https://evil.example' }]) {
      expectError(await mem.request({ method: 'POST', url: `/hub/api/runs/${run}/reject`, headers }), 403, 'permission', 'csrf_failed');
    }
    expect((await mem.get(`/hub/api/runs/${run}`)).json().status).toBe('cancelled');
  });
});
