// Retrying a run from the hub (issue 26, part 8: "Run again", POST /hub/api/runs/{id}/retry): a
// new manual run of the same workflow with the retried run's own blocks and edges, linked both
// ways (retry_of, latest_retry) and audited; twice, and a retry of a retry; every refusal (not
// ended, succeeded, workflow deleted, no credit) with nothing started; the API's run limits do not
// apply (a manual start), the account's credit does; and security: members and admins alike,
// another account's run, a revoked session, signed out, CSRF, a read-only account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { enqueueWorkflowRun } from '../../src/queue/enqueue.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let mem: HubClient;
let admin: HubClient;
let memB: HubClient;
let broke: HubClient;
let lapsed: HubClient;

function acct(ref: string, o: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    credit_micros: 10_000_000,
    users: [['owner', 'owner', 'Olivia Owner'], ['admin', 'admin', 'Ada Admin'], ['mem', 'member', 'Mia Member']].map(([user, role, name]) => ({ ref: user, email: `${user}@${ref}.example`, role, name })),
    keys: [],
    workflows: [{ ref: 'plain', name: 'Plain', blocks: [{ id: 'src', kind: 'source.text', config: { text: 'as it was' } }] }],
    ...o,
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(
    t.db,
    // One API run at a time: a retry is a manual start, which the API's limits do not count.
    acct('a', { limits: { concurrent_runs: 1, run_starts_per_minute: 1 } }),
    acct('b'),
    acct('broke', { credit_micros: 0 }),
    acct('lapsed', { subscription: 'ended' }),
  );
  const as = (ref: string, user: 'mem' | 'admin') => hubClient(t, { accountId: S[ref].id, userId: S[ref].users[user], email: `${user}@${ref}.example` });
  mem = await as('a', 'mem');
  admin = await as('a', 'admin');
  memB = await as('b', 'mem');
  broke = await as('broke', 'mem');
  lapsed = await as('lapsed', 'mem');
});
afterAll(() => t?.close());

/** A run of `ref`'s workflow that no worker claims (no engine runs here), put in `status`. */
async function runIn(ref: string, status: string, trigger: 'api' | 'schedule' = 'schedule'): Promise<string> {
  const r = await t.db.transaction((tx) =>
    enqueueWorkflowRun(tx, { accountId: S[ref].id, workflowId: S[ref].workflows.plain, trigger, keyId: null, startDelayMs: 600_000 }),
  );
  if (status !== 'queued') await t.db.query(`update workflow_runs set status = $2, finished_at = now() where id = $1`, [r.id, status]);
  return r.id;
}

const snapshot = async (id: string) =>
  (await t.db.query<{ blocks: unknown; retry_of: string | null; trigger: string; started_by_user: string | null }>(
    `select blocks, retry_of, trigger, started_by_user from workflow_runs where id = $1`,
    [id],
  ))[0];

const retriesOf = async (ids: string[]) =>
  (await t.db.query<{ n: number }>(`select count(*)::int as n from workflow_runs where retry_of = any($1::uuid[])`, [ids]))[0].n;

const audit = (runId: string) =>
  t.db.query<{ action: string; actor_id: string | null; detail: Record<string, unknown> }>(
    `select action, actor_id, detail from audit_log where object_kind = 'run' and object_id = $1 order by at, id`,
    [runId],
  );

describe('POST /hub/api/runs/{id}/retry', () => {
  it('starts a manual run of the same workflow and definition by this user, linked both ways and audited', async () => {
    const orig = await runIn('a', 'failed');
    const before = await snapshot(orig);
    // Saved since the failure: the retry still runs the definition that failed.
    await t.db.query(`update workflows set blocks = '[{"id":"src","kind":"source.text","config":{"text":"edited since"}}]' where id = $1`, [S.a.workflows.plain]);
    const r = await mem.post(`/hub/api/runs/${orig}/retry`);
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json()).toEqual({ id: expect.any(String), workflow_id: S.a.workflows.plain, status: 'queued', trigger: 'manual', created_at: expect.stringMatching(/Z$/) });
    const id = r.json().id as string;
    expect(await snapshot(id)).toEqual({ blocks: before.blocks, retry_of: orig, trigger: 'manual', started_by_user: S.a.users.mem });
    expect((await mem.get(`/hub/api/runs/${id}`)).json()).toMatchObject({ retry_of: orig, latest_retry: null, started_by: 'Mia Member <mem@a.example>', can_retry: false });
    expect((await mem.get(`/hub/api/runs/${orig}`)).json()).toMatchObject({ retry_of: null, latest_retry: id, can_retry: true });
    expect(await audit(id)).toEqual([{ action: 'run.started', actor_id: S.a.users.mem, detail: { workflow_id: S.a.workflows.plain, trigger: 'manual', run_again_of: orig } }]);
    await mem.post(`/hub/api/runs/${id}/cancel`);
  });

  it('retries partial, cancelled and rejected runs too, for members and admins alike, past the API\'s run limits', async () => {
    // The account's one API slot and its one API start this minute are taken.
    const apiRun = await runIn('a', 'queued', 'api');
    for (const [status, who] of [['partial', mem], ['cancelled', admin], ['rejected', admin]] as const) {
      const r = await who.post(`/hub/api/runs/${await runIn('a', status)}/retry`);
      expect(r.statusCode, `${status}: ${r.body}`).toBe(202);
      await who.post(`/hub/api/runs/${r.json().id}/cancel`);
    }
    await mem.post(`/hub/api/runs/${apiRun}/cancel`);
  });

  it('retrying twice makes two runs naming the first; the first names the newest', async () => {
    const orig = await runIn('a', 'failed');
    const one = (await mem.post(`/hub/api/runs/${orig}/retry`)).json().id as string;
    const two = (await admin.post(`/hub/api/runs/${orig}/retry`)).json().id as string;
    expect(new Set([one, two, orig]).size).toBe(3);
    expect((await snapshot(one)).retry_of).toBe(orig);
    expect((await snapshot(two)).retry_of).toBe(orig);
    expect((await mem.get(`/hub/api/runs/${orig}`)).json().latest_retry).toBe(two);
    for (const id of [one, two]) await mem.post(`/hub/api/runs/${id}/cancel`);
  });

  it('a retry of a retry names the retry and still runs the first run\'s definition', async () => {
    const orig = await runIn('b', 'failed');
    const first = await snapshot(orig);
    await t.db.query(`update workflows set blocks = '[{"id":"x","kind":"source.text","config":{"text":"other"}}]' where id = $1`, [S.b.workflows.plain]);
    const one = (await memB.post(`/hub/api/runs/${orig}/retry`)).json().id as string;
    // Still open: not retried.
    expectError(await memB.post(`/hub/api/runs/${one}/retry`), 409, 'conflict', 'run_cannot_run_again');
    expect((await memB.post(`/hub/api/runs/${one}/cancel`)).statusCode).toBe(200);
    const r = await memB.post(`/hub/api/runs/${one}/retry`);
    expect(r.statusCode, r.body).toBe(202);
    expect(await snapshot(r.json().id)).toMatchObject({ retry_of: one, blocks: first.blocks });
    expect((await memB.get(`/hub/api/runs/${r.json().id}`)).json()).toMatchObject({ retry_of: one });
    expect((await memB.get(`/hub/api/runs/${one}`)).json()).toMatchObject({ retry_of: orig, latest_retry: r.json().id });
    await memB.post(`/hub/api/runs/${r.json().id}/cancel`);
  });
});

describe('refusals: nothing starts', () => {
  it('a run not ended, or one that succeeded → 409 run_cannot_run_again in words', async () => {
    const open = await runIn('a', 'queued');
    expect(expectError(await mem.post(`/hub/api/runs/${open}/retry`), 409, 'conflict', 'run_cannot_run_again').message).toMatch(/has not ended yet \(queued\)/);
    await t.db.query(`update workflow_runs set status = 'awaiting_approval' where id = $1`, [open]);
    expect(expectError(await mem.post(`/hub/api/runs/${open}/retry`), 409, 'conflict', 'run_cannot_run_again').message).toMatch(/awaiting_approval/);
    await mem.post(`/hub/api/runs/${open}/cancel`);
    const ok = await runIn('a', 'succeeded');
    expect(expectError(await mem.post(`/hub/api/runs/${ok}/retry`), 409, 'conflict', 'run_cannot_run_again').message).toMatch(/succeeded/);
    expect((await mem.get(`/hub/api/runs/${ok}`)).json().can_retry).toBe(false);
    expect(await retriesOf([open, ok])).toBe(0);
  });

  it('a run whose workflow was deleted → 409; no credit → 402 as any manual start', async () => {
    const gone = await runIn('b', 'failed');
    await t.db.query(`update workflows set deleted_at = now() where id = $1`, [S.b.workflows.plain]);
    expect((await memB.get(`/hub/api/runs/${gone}`)).json().can_retry).toBe(false);
    expect(expectError(await memB.post(`/hub/api/runs/${gone}/retry`), 409, 'conflict', 'run_cannot_run_again').message).toMatch(/deleted/);
    await t.db.query(`update workflows set deleted_at = null where id = $1`, [S.b.workflows.plain]);
    const poor = await runIn('broke', 'failed');
    expectError(await broke.post(`/hub/api/runs/${poor}/retry`), 402, 'insufficient_credit', 'account_out_of_credit');
    expect(await retriesOf([gone, poor])).toBe(0);
  });

  it('validates its id and body', async () => {
    const orig = await runIn('a', 'failed');
    expectError(await mem.post('/hub/api/runs/not-a-uuid/retry'), 400, 'invalid_request', 'invalid_id', 'id');
    expectError(await mem.post(`/hub/api/runs/${orig}/retry`, { input: 'x' }), 422, 'invalid_request', 'unknown_field', 'input');
    expectError(await mem.post('/hub/api/runs/00000000-0000-4000-8000-000000000000/retry'), 404, 'not_found', 'resource_not_found');
    expect(await retriesOf([orig])).toBe(0);
  });
});

describe('security', () => {
  it("another account's run → 404, as an unknown one; nothing starts", async () => {
    const theirs = await runIn('b', 'failed');
    expectError(await mem.post(`/hub/api/runs/${theirs}/retry`), 404, 'not_found', 'resource_not_found');
    expect(await retriesOf([theirs])).toBe(0);
  });

  it('signed out, or with a session signed out since → 401; no CSRF token or a foreign Origin → 403', async () => {
    const run = await runIn('a', 'failed');
    expectError(await t.app.inject({ method: 'POST', url: `/hub/api/runs/${run}/retry` }), 401, 'authentication', 'not_signed_in');
    const gone = await hubClient(t, { accountId: S.a.id, userId: S.a.users.admin, email: 'admin@a.example' });
    expect((await gone.delete('/hub/api/session')).statusCode).toBe(204);
    expectError(await gone.post(`/hub/api/runs/${run}/retry`), 401, 'authentication', 'not_signed_in');
    for (const headers of [{ 'x-csrf-token': '' }, { origin: 'https://evil.example' }]) {
      expectError(await mem.request({ method: 'POST', url: `/hub/api/runs/${run}/retry`, headers }), 403, 'permission', 'csrf_failed');
    }
    expect(await retriesOf([run])).toBe(0);
  });

  it('a read-only account (plan ended) → 403 subscription_inactive', async () => {
    const run = await runIn('lapsed', 'failed');
    expectError(await lapsed.post(`/hub/api/runs/${run}/retry`), 403, 'permission', 'subscription_inactive');
    expect(await retriesOf([run])).toBe(0);
  });
});
