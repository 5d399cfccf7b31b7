// POST /v1/workflows/{id}/runs: the started run, every error of the spec's Start-a-run row, and
// each idempotency rule. No engine runs in these tests, so started runs stay queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueWorkflowRun as insertRun } from '../../src/queue/enqueue.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, ISO_MS, UUID_RE } from '../http/fixtures.js';

const ALL = ['workflows:read', 'workflows:run'];
const blocks = [{ id: 'a', kind: 'source.text', config: { text: 'hello' } }];

function acct(ref: string, extra: Record<string, unknown> = {}, keys: Record<string, unknown>[] = [{ ref: 'k', name: 'k', scopes: ALL }]) {
  return {
    ref,
    name: ref,
    credit_micros: 10_000_000,
    users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' }],
    keys,
    workflows: [
      { ref: 'wf', name: 'Runnable', status: 'active', blocks, edges: [] },
      { ref: 'wf2', name: 'Also runnable', status: 'draft', blocks, edges: [] },
      { ref: 'empty', name: 'Empty', blocks: [], edges: [] },
    ],
    ...extra,
  };
}

let t: TestApp;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];
let n = 0;
const ikey = () => `test-key-${Date.now()}-${n++}`;

beforeAll(async () => {
  t = await testApp();
  S = (
    await seedFixture(
      t.db,
      {
        accounts: [
          acct('main', { limits: { run_starts_per_minute: 1000, concurrent_runs: 1000 } }),
          acct('other'),
          acct('broke', { credit_micros: 0 }),
          acct('lapsed', { subscription: 'lapsed' }),
          acct('capped', {}, [{ ref: 'k', name: 'k', scopes: ALL, monthly_spend_cap_micros: 1000 }]),
          acct('rate', { limits: { run_starts_per_minute: 3, concurrent_runs: 100 } }),
          acct('conc', { limits: { concurrent_runs: 2 } }),
          acct('readonly', {}, [{ ref: 'k', name: 'k', scopes: ['workflows:read'] }]),
        ],
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

function start(account: string, wf = 'wf', opts: { key?: string | null; body?: string; type?: string; workflowId?: string } = {}) {
  const headers: Record<string, string> = { ...bearer(S[account].keys.k) };
  const key = opts.key === undefined ? ikey() : opts.key;
  if (key !== null) headers['idempotency-key'] = key;
  if (opts.body !== undefined) headers['content-type'] = opts.type ?? 'application/json';
  return t.app.inject({
    method: 'POST',
    url: `/v1/workflows/${opts.workflowId ?? S[account].workflows[wf]}/runs`,
    headers,
    payload: opts.body,
  });
}

async function runCount(accountId: string): Promise<number> {
  const [r] = await t.db.query<{ n: number }>('select count(*)::int as n from workflow_runs where account_id = $1', [accountId]);
  return r.n;
}

describe('start a run: happy path', () => {
  it('answers 202 with the started run, queued, trigger api', async () => {
    const r = await start('main');
    expect(r.statusCode).toBe(202);
    const body = r.json();
    expect(Object.keys(body).sort()).toEqual(['created_at', 'id', 'status', 'trigger', 'workflow_id']);
    expect(body).toMatchObject({ workflow_id: S.main.workflows.wf, status: 'queued', trigger: 'api' });
    expect(body.id).toMatch(UUID_RE);
    expect(body.created_at).toMatch(ISO_MS);
    expect(r.headers['idempotent-replay']).toBeUndefined();
    expect(r.headers['ratelimit-limit']).toBe('120');
  });

  it('takes no body, an empty JSON body, or {}', async () => {
    expect((await start('main')).statusCode).toBe(202);
    expect((await start('main', 'wf', { body: '' })).statusCode).toBe(202);
    expect((await start('main', 'wf', { body: '{}' })).statusCode).toBe(202);
  });

  it('starts drafts too (the spec has no error for them)', async () => {
    expect((await start('main', 'wf2')).statusCode).toBe(202);
  });

  it('makes the run the workflow last_run and lists it', async () => {
    const r = (await start('main')).json();
    const wf = (await t.app.inject({ method: 'GET', url: `/v1/workflows/${S.main.workflows.wf}`, headers: bearer(S.main.keys.k) })).json();
    expect(wf.last_run).toEqual({ id: r.id, status: 'queued', at: r.created_at });
  });
});

describe('start a run: body and header errors', () => {
  it.each([
    ['[]', 'invalid_body'],
    ['null', 'invalid_body'],
    ['1', 'invalid_body'],
    ['"x"', 'invalid_body'],
  ])('body %s → 422 %s', async (body, code) => {
    expectError(await start('main', 'wf', { body }), 422, 'invalid_request', code);
  });

  it('any field → 422 unknown_field naming it', async () => {
    expectError(await start('main', 'wf', { body: '{"inputs":{}}' }), 422, 'invalid_request', 'unknown_field', 'inputs');
  });

  it('malformed JSON → 400 invalid_json; not JSON → 415', async () => {
    expectError(await start('main', 'wf', { body: '{' }), 400, 'invalid_request', 'invalid_json');
    expectError(await start('main', 'wf', { body: 'x=1', type: 'application/x-www-form-urlencoded' }), 415, 'invalid_request', 'unsupported_media_type');
  });

  it('no Idempotency-Key → 400 missing_idempotency_key', async () => {
    expectError(await start('main', 'wf', { key: null }), 400, 'invalid_request', 'missing_idempotency_key', 'Idempotency-Key');
  });

  it.each([['short'], ['has space in it'], ['x'.repeat(65)], ['tab\there!'], ['']])('Idempotency-Key %j → 400 invalid_idempotency_key', async (key) => {
    expectError(await start('main', 'wf', { key }), 400, 'invalid_request', 'invalid_idempotency_key', 'Idempotency-Key');
  });

  it('accepts 8 and 64 printable characters, and a UUID', async () => {
    for (const key of ['12345678', 'y'.repeat(64), crypto.randomUUID()]) expect((await start('main', 'wf', { key })).statusCode).toBe(202);
  });
});

describe('start a run: resource, credit and state errors', () => {
  it('unknown workflow and another account\'s workflow → 404 resource_not_found', async () => {
    const unknown = await start('main', 'wf', { workflowId: crypto.randomUUID() });
    const foreign = await start('main', 'wf', { workflowId: S.other.workflows.wf });
    expectError(unknown, 404, 'not_found', 'resource_not_found');
    expectError(foreign, 404, 'not_found', 'resource_not_found');
    expect(foreign.json().error.message).toBe(unknown.json().error.message);
  });

  it('a workflow with no blocks → 422 workflow_empty', async () => {
    expectError(await start('main', 'empty'), 422, 'invalid_request', 'workflow_empty');
  });

  it('no credit → 402 account_out_of_credit, no run', async () => {
    expectError(await start('broke'), 402, 'insufficient_credit', 'account_out_of_credit');
    expect(await runCount(S.broke.id)).toBe(0);
  });

  it('a key at its monthly cap → 402 key_spend_cap_reached', async () => {
    expect((await start('capped')).statusCode).toBe(202);
    await t.db.query(
      `insert into api_key_spend (account_id, key_id, month, spent_micros)
       values ($1, $2, date_trunc('month', now() at time zone 'utc')::date, 1000)
       on conflict (account_id, key_id, month) do update set spent_micros = 1000`,
      [S.capped.id, S.capped.key_ids.k],
    );
    expectError(await start('capped'), 402, 'insufficient_credit', 'key_spend_cap_reached');
  });

  it('lapsed subscription → 403 subscription_inactive (reads still work)', async () => {
    expectError(await start('lapsed'), 403, 'permission', 'subscription_inactive');
    const list = await t.app.inject({ method: 'GET', url: `/v1/workflows/${S.lapsed.workflows.wf}/runs`, headers: bearer(S.lapsed.keys.k) });
    expect(list.statusCode).toBe(200);
  });

  it('a key without workflows:run → 403 insufficient_scope naming it', async () => {
    const e = expectError(await start('readonly'), 403, 'permission', 'insufficient_scope');
    expect(e.message).toContain('workflows:run');
  });
});

describe('start a run: run limits', () => {
  it('beyond the per-account start rate → 429 run_rate_limited with Retry-After; replays still answer', async () => {
    const keys = ['rate-key-1', 'rate-key-2', 'rate-key-3'];
    for (const key of keys) expect((await start('rate', 'wf', { key })).statusCode).toBe(202);
    const r = await start('rate');
    expectError(r, 429, 'rate_limit', 'run_rate_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
    const replay = await start('rate', 'wf', { key: keys[0] });
    expect(replay.statusCode).toBe(202);
    expect(replay.headers['idempotent-replay']).toBe('true');
  });

  it('beyond the concurrency limit → 429 concurrency_limited; manual runs do not count', async () => {
    await t.db.transaction((tx) => insertRun(tx, { accountId: S.conc.id, workflowId: S.conc.workflows.wf, trigger: 'manual', keyId: null, startDelayMs: 0 }));
    expect((await start('conc')).statusCode).toBe(202);
    expect((await start('conc')).statusCode).toBe(202);
    const r = await start('conc');
    expectError(r, 429, 'rate_limit', 'concurrency_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // awaiting_approval runs do not count: one moves there and a start fits again
    await t.db.query(
      `update workflow_runs set status = 'awaiting_approval' where id = (select id from workflow_runs where account_id = $1 and trigger = 'api' limit 1)`,
      [S.conc.id],
    );
    expect((await start('conc')).statusCode).toBe(202);
  });
});
