// Limits rule 4 and Start a run note 1, end to end with the engine: "a run that reaches [the key's
// monthly cap] is stopped and further starts give 402 key_spend_cap_reached". A run stops when what
// is left cannot pay its next AI call, before spend equals the cap; that stop is what refuses the
// next start, until the cap is raised. The account's credit works the same way (402
// account_out_of_credit until credit is added).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

const ALL = ['workflows:read', 'workflows:run'];
let t: TestApp;
let engine: Engine;
let S: Record<string, AccountSeedResult>;

beforeAll(async () => {
  t = await testApp();
  const agent = (config: Record<string, unknown>) => [{ ref: 'ai', name: 'AI', status: 'active', blocks: [{ id: 'ai', kind: 'agent', config }], edges: [] }];
  S = await seed(
    t.db,
    {
      ...account('capped', { tier: 'enterprise' }),
      credit_micros: 10_000_000,
      // 2,000 micros per 1k tokens by default: a 400-character prompt is ~100 tokens = ~200 micros.
      keys: [{ ref: 'k', name: 'k', scopes: ALL, monthly_spend_cap_micros: 500 }],
      workflows: agent({ prompt: 'x'.repeat(400) }),
    },
    {
      ...account('poor', { tier: 'enterprise' }),
      // One call of ~110 tokens (~220 micros), then not enough left for the second.
      credit_micros: 300,
      keys: [{ ref: 'k', name: 'k', scopes: ALL }],
      workflows: agent({ prompt: 'x'.repeat(400), max_tokens: 10 }),
    },
  );
  engine = createEngine(t.db, { ...t.config, engine: { ...t.config.engine, pollMs: 50 } });
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

let n = 0;
const start = (account: string, wf: string, key = `stops-${Date.now()}-${n++}`, workflowId = S[account].workflows[wf]) =>
  t.app.inject({ method: 'POST', url: `/v1/workflows/${workflowId}/runs`, headers: { ...bearer(S[account].keys.k), 'idempotency-key': key } });

async function waitFinal(account: string, id: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = (await t.app.inject({ method: 'GET', url: `/v1/runs/${id}`, headers: bearer(S[account].keys.k) })).json();
    if (['succeeded', 'failed', 'partial', 'rejected', 'cancelled'].includes(run.status) || Date.now() > deadline) return run;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Limits rule 4: per-key monthly spend cap', () => {
  it('a run stopped at the key spend cap is followed by 402 key_spend_cap_reached, until the cap is raised', async () => {
    // First run spends most of the 500-micro cap.
    const first = await start('capped', 'ai');
    expect(first.statusCode).toBe(202);
    expect((await waitFinal('capped', first.json().id)).status).toBe('succeeded');
    // Second run cannot pay its call: it is stopped (partial) without spending.
    const second = await start('capped', 'ai');
    expect(second.statusCode).toBe(202);
    const stopped = await waitFinal('capped', second.json().id);
    expect(stopped).toMatchObject({ status: 'partial', summary: 'Stopped: spend limit reached' });
    const [{ spent }] = await t.db.query<{ spent: number }>('select spent_micros as spent from api_key_spend where key_id = $1', [S.capped.key_ids.k]);
    expect(spent).toBeLessThan(500);
    // "further starts give 402 key_spend_cap_reached", and such a refusal leaves the key unused.
    const refused = await start('capped', 'ai', 'stops-cap-key');
    expectError(refused, 402, 'insufficient_credit', 'key_spend_cap_reached');
    // An owner raises the cap (keys set-cap): starts work again, with the same Idempotency-Key.
    await t.db.query('update api_keys set monthly_spend_cap_micros = 5000 where id = $1', [S.capped.key_ids.k]);
    const again = await start('capped', 'ai', 'stops-cap-key');
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replay']).toBeUndefined();
    expect((await waitFinal('capped', again.json().id)).status).toBe('succeeded');
  });
});

describe('the account credit, the same way', () => {
  it('a run stopped for want of credit is followed by 402 account_out_of_credit, until credit is added', async () => {
    expect((await waitFinal('poor', (await start('poor', 'ai')).json().id)).status).toBe('succeeded');
    const stopped = await waitFinal('poor', (await start('poor', 'ai')).json().id);
    expect(stopped).toMatchObject({ status: 'partial', summary: 'Stopped: spend limit reached' });
    const [{ credit }] = await t.db.query<{ credit: number }>('select credit_micros as credit from accounts where id = $1', [S.poor.id]);
    expect(credit).toBeGreaterThan(0); // not zero, yet out of credit for a run
    expectError(await start('poor', 'ai'), 402, 'insufficient_credit', 'account_out_of_credit');
    await t.db.query('update accounts set credit_micros = credit_micros + 100000 where id = $1', [S.poor.id]);
    const again = await start('poor', 'ai');
    expect(again.statusCode).toBe(202);
    expect((await waitFinal('poor', again.json().id)).status).toBe('succeeded');
  });
});
