// A run that is final does not change afterwards, billed_micros included. Spec: "Final states:
// succeeded, failed, partial, rejected, cancelled"; "Get a run: poll until status is final". A run
// cancelled while its agent block waits on the model (the worker learns of the cancel only at its
// next lease renewal) must not be billed for that call when it comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { createBlockRegistry } from '../../src/engine/blocks/index.js';
import { createProviders } from '../../src/engine/providers/index.js';
import { createBilling } from '../../src/engine/billing/index.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { runsCommand } from '../../src/cli/runs.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, seed } from '../http/fixtures.js';

let t: TestApp;
let engine: Engine;
let S: Record<string, AccountSeedResult>;
const LLM_DELAY_MS = 1_500;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, {
    ...account('a', { tier: 'enterprise' }),
    credit_micros: 10_000_000,
    keys: [{ ref: 'k', name: 'k', scopes: ['workflows:read', 'workflows:run'] }],
    workflows: [
      {
        ref: 'ai',
        name: 'ai',
        status: 'active',
        blocks: [
          { id: 'src', kind: 'source.text', config: { text: 'Shipped the page. Fixed checkout.' } },
          { id: 'write', kind: 'agent', config: { prompt: 'Summarise: {{src}}', max_tokens: 50 } },
        ],
        edges: [{ from: 'src', to: 'write' }],
      },
    ],
  });
  // Default lease (30 s, renewed every 10 s): how a real deployment runs.
  const config = { ...t.config, engine: { ...t.config.engine, pollMs: 30, leaseMs: 30_000 } };
  const base = createProviders(config);
  const local = base.llm;
  engine = new Engine({
    db: t.db,
    config,
    blocks: createBlockRegistry(config),
    providers: {
      ...base,
      llm: {
        // A model that takes LLM_DELAY_MS to answer and stops as soon as the signal aborts (as the
        // openai-compatible provider's fetch does).
        name: 'test-slow',
        async complete(req) {
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, LLM_DELAY_MS);
            req.signal?.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(new Error('LLM request cancelled'));
            }, { once: true });
          });
          return local.complete(req);
        },
      },
    },
    billing: createBilling(t.db),
    stopGraceMs: 200,
  });
  await engine.start();
});
afterAll(async () => {
  await engine?.stop();
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(S.a.keys.k) });

describe('a polling client', () => {
  it('billed_micros of a cancelled run does not change after it is final', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: `/v1/workflows/${S.a.workflows.ai}/runs`,
      headers: { ...bearer(S.a.keys.k), 'idempotency-key': 'final-billing-0001' },
    });
    expect(r.statusCode).toBe(202);
    const id = r.json().id;
    // Wait until the agent block is calling the model, then cancel the run (operator / hub).
    const deadline = Date.now() + 15_000;
    for (;;) {
      const run = (await get(`/v1/runs/${id}`)).json();
      if (run.steps.some((s: { node_id: string; status: string }) => s.node_id === 'write' && s.status === 'running')) break;
      if (Date.now() > deadline) throw new Error(`never reached the agent block: ${JSON.stringify(run)}`);
      await sleep(20);
    }
    expect((await runsCommand(t.db, ['cancel', id])).code).toBe(0);
    const cancelled = (await get(`/v1/runs/${id}`)).json();
    expect(cancelled.status).toBe('cancelled');
    // The client stops polling at the final status; what it read must stay true.
    await sleep(LLM_DELAY_MS + 1_000);
    const later = (await get(`/v1/runs/${id}`)).json();
    expect(later.status).toBe('cancelled');
    expect(later.billed_micros).toBe(cancelled.billed_micros);
    // Nothing reached the ledger either: usage and the run agree.
    const [{ n }] = await t.db.query<{ n: number }>('select count(*)::int as n from billing_ledger where workflow_run_id = $1', [id]);
    expect(n).toBe(0);
  });
});
