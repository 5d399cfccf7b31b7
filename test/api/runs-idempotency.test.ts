// The idempotency rules on run starts: replay, reuse, in progress, outcome unknown, refusals that
// leave the key unused, concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError } from '../http/fixtures.js';

let t: TestApp;
let S: Awaited<ReturnType<typeof seedFixture>>['accounts'];

beforeAll(async () => {
  t = await testApp({ idempotencyLockTimeoutMs: 60_000 });
  const blocks = [{ id: 'a', kind: 'source.text', config: { text: 'x' } }];
  S = (
    await seedFixture(
      t.db,
      {
        accounts: ['a', 'b'].map((ref) => ({
          ref,
          name: ref,
          credit_micros: 1_000_000,
          limits: { run_starts_per_minute: 1000, concurrent_runs: 1000 },
          users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' }],
          keys: [
            { ref: 'k', name: 'k', scopes: ['workflows:read', 'workflows:run'] },
            { ref: 'k2', name: 'second key', scopes: ['workflows:run'] },
          ],
          workflows: [
            { ref: 'wf', name: 'w', blocks, edges: [] },
            { ref: 'wf2', name: 'w2', blocks, edges: [] },
          ],
        })),
      },
      { erasureSecret: Buffer.from('t') },
    )
  ).accounts;
});
afterAll(() => t?.close());

const post = (wfId: string, key: string, opts: { body?: string; apiKey?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/workflows/${wfId}/runs`,
    headers: {
      ...bearer(opts.apiKey ?? S.a.keys.k),
      'idempotency-key': key,
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: opts.body,
  });

async function runs(accountId: string): Promise<number> {
  const [r] = await t.db.query<{ n: number }>('select count(*)::int as n from workflow_runs where account_id = $1', [accountId]);
  return r.n;
}

describe('idempotency on run starts', () => {
  it('same key and same request → the first answer, Idempotent-Replay: true, one run', async () => {
    const before = await runs(S.a.id);
    const first = await post(S.a.workflows.wf, 'replay-key-1');
    const again = await post(S.a.workflows.wf, 'replay-key-1');
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(again.headers['ratelimit-remaining']).toBeDefined();
    expect(await runs(S.a.id)).toBe(before + 1);
  });

  it('the replay keeps status queued even when the run has moved on', async () => {
    const first = await post(S.a.workflows.wf, 'replay-key-2');
    await t.db.query(`update workflow_runs set status = 'succeeded', finished_at = now() where id = $1`, [first.json().id]);
    expect((await post(S.a.workflows.wf, 'replay-key-2')).json().status).toBe('queued');
  });

  it('an empty body and {} are the same request; another key of the account replays too', async () => {
    const first = await post(S.a.workflows.wf, 'replay-key-3');
    const withBody = await post(S.a.workflows.wf, 'replay-key-3', { body: '{}' });
    const otherKey = await post(S.a.workflows.wf, 'replay-key-3', { apiKey: S.a.keys.k2 });
    expect(withBody.body).toBe(first.body);
    expect(otherKey.body).toBe(first.body);
  });

  it('same key, different request → 422 idempotency_key_reused', async () => {
    await post(S.a.workflows.wf, 'reuse-key-1');
    expectError(await post(S.a.workflows.wf2, 'reuse-key-1'), 422, 'invalid_request', 'idempotency_key_reused', 'Idempotency-Key');
  });

  it('keys are per account: the same key in another account is a new request', async () => {
    await post(S.a.workflows.wf, 'shared-key-1');
    const other = await post(S.b.workflows.wf, 'shared-key-1', { apiKey: S.b.keys.k });
    expect(other.statusCode).toBe(202);
    expect(other.headers['idempotent-replay']).toBeUndefined();
  });

  it('first request still in progress → 409 idempotency_in_progress', async () => {
    const { fingerprint } = await import('../../src/idempotency/index.js');
    const url = `/v1/workflows/${S.a.workflows.wf}/runs`;
    await t.db.query(
      `insert into idempotency_keys (account_id, key, fingerprint, status, locked_at, expires_at)
       values ($1, 'inflight-key', $2, 'in_progress', now(), now() + interval '1 day')`,
      [S.a.id, fingerprint('POST', url, undefined)],
    );
    expectError(await post(S.a.workflows.wf, 'inflight-key'), 409, 'conflict', 'idempotency_in_progress', 'Idempotency-Key');
  });

  it('first request that never finished → 409 idempotency_outcome_unknown, never run again', async () => {
    const { fingerprint } = await import('../../src/idempotency/index.js');
    const url = `/v1/workflows/${S.a.workflows.wf}/runs`;
    await t.db.query(
      `insert into idempotency_keys (account_id, key, fingerprint, status, locked_at, expires_at)
       values ($1, 'dead-key-1', $2, 'in_progress', now() - interval '10 minutes', now() + interval '1 day')`,
      [S.a.id, fingerprint('POST', url, undefined)],
    );
    const before = await runs(S.a.id);
    expectError(await post(S.a.workflows.wf, 'dead-key-1'), 409, 'conflict', 'idempotency_outcome_unknown', 'Idempotency-Key');
    expectError(await post(S.a.workflows.wf, 'dead-key-1'), 409, 'conflict', 'idempotency_outcome_unknown', 'Idempotency-Key');
    expect(await runs(S.a.id)).toBe(before);
  });

  it('a refusal before anything happened does not use up the key', async () => {
    expectError(await post(crypto.randomUUID(), 'refused-key-1'), 404, 'not_found', 'resource_not_found');
    const ok = await post(S.a.workflows.wf, 'refused-key-1');
    expect(ok.statusCode).toBe(202);
    expect(ok.headers['idempotent-replay']).toBeUndefined();
  });

  it('validation errors do not touch the key either', async () => {
    expectError(await post(S.a.workflows.wf, 'invalid-body-key', { body: '[]' }), 422, 'invalid_request', 'invalid_body');
    expect((await post(S.a.workflows.wf, 'invalid-body-key')).statusCode).toBe(202);
  });

  it('an expired key (past 24 hours) is forgotten', async () => {
    const first = await post(S.a.workflows.wf, 'old-key-1');
    await t.db.query(`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'old-key-1'`);
    const second = await post(S.a.workflows.wf, 'old-key-1');
    expect(second.statusCode).toBe(202);
    expect(second.json().id).not.toBe(first.json().id);
  });

  it('concurrent identical requests create exactly one run', async () => {
    const before = await runs(S.a.id);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(S.a.workflows.wf, 'storm-key-1')));
    const codes = answers.map((a) => (a.statusCode === 202 ? 'ok' : a.json().error.code));
    expect(codes.every((c) => c === 'ok' || c === 'idempotency_in_progress')).toBe(true);
    const ids = new Set(answers.filter((a) => a.statusCode === 202).map((a) => a.json().id));
    expect(ids.size).toBe(1);
    expect(await runs(S.a.id)).toBe(before + 1);
  });
});

describe('idempotency key retention', () => {
  it('the reaper deletes keys older than 24 hours and keeps the rest', async () => {
    const { deleteExpiredKeys } = await import('../../src/idempotency/store.js');
    await post(S.a.workflows.wf, 'reap-keep-1');
    await post(S.a.workflows.wf, 'reap-drop-1');
    await t.db.query(`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'reap-drop-1'`);
    expect(await deleteExpiredKeys(t.db)).toBeGreaterThanOrEqual(1);
    const left = await t.db.query<{ key: string }>(`select key from idempotency_keys where key in ('reap-keep-1', 'reap-drop-1')`);
    expect(left.map((r) => r.key)).toEqual(['reap-keep-1']);
  });
});

describe('the same request, whatever letter case its path id is in', () => {
  it('a retry with the workflow id in another case replays (one run), not 422 idempotency_key_reused', async () => {
    const id = S.a.workflows.wf;
    const before = await runs(S.a.id);
    const first = await post(id.toUpperCase(), 'case-key-1');
    expect(first.statusCode).toBe(202);
    expect(first.json().workflow_id).toBe(id); // both spellings name one workflow
    const retry = await post(id, 'case-key-1');
    expect(retry.statusCode).toBe(202);
    expect(retry.headers['idempotent-replay']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(await runs(S.a.id)).toBe(before + 1);
    // Another workflow under the same key is still another request.
    expectError(await post(S.a.workflows.wf2.toUpperCase(), 'case-key-1'), 422, 'invalid_request', 'idempotency_key_reused', 'Idempotency-Key');
  });
});
