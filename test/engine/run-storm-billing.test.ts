// A storm of concurrent AI runs against limited credit and a key spend cap, executed by two
// engines at once: nothing overspends, runs that meet a limit stop `partial`, and the ledger sums
// equal every counter (balance spent, key month spend, runs' billed_micros).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueWorkflowRun as insertRun } from '../../src/queue/enqueue.js';
import { configWith } from '../../src/config.js';
import type { Db } from '../../src/db/db.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { freshDb, type TestDb } from '../helpers/db.js';

const CREDIT = 6_000;
const CAP = 4_000;
let t: TestDb;
let second: Db | null = null;
const engines: Engine[] = [];

beforeAll(async () => {
  t = await freshDb();
});
afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
  await second?.close();
  await t?.close();
});

describe('run storm against credit and a cap', () => {
  it('never overspends, and the ledger equals the counters', { timeout: 120_000 }, async () => {
    const blocks = [
      { id: 'src', kind: 'source.text', config: { text: 'Shipped the pricing page. Fixed checkout. Wrote docs.' } },
      { id: 'ai', kind: 'agent', config: { prompt: 'Summarise: {{src}}', max_tokens: 200 } },
    ];
    const seeded = await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            credit_micros: CREDIT,
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            keys: [
              { ref: 'capped', name: 'capped', scopes: ['workflows:run'], monthly_spend_cap_micros: CAP },
              { ref: 'free', name: 'free', scopes: ['workflows:run'] },
            ],
            workflows: [{ ref: 'wf', name: 'w', blocks, edges: [{ from: 'src', to: 'ai' }] }],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    );
    const a = seeded.accounts.a;
    for (let i = 0; i < 60; i++) {
      await t.db.transaction((tx) =>
        insertRun(tx, { accountId: a.id, workflowId: a.workflows.wf, trigger: 'api', keyId: i % 2 ? a.key_ids.capped : a.key_ids.free, startDelayMs: 0 }),
      );
    }
    const base = configWith({});
    const config = configWith({ engine: { ...base.engine, pollMs: 20, concurrency: 8 }, llm: { ...base.llm, microsPer1kTokens: 10_000 } });
    // Two engines; on PostgreSQL each has its own connection pool, like two worker processes.
    second = t.url ? new PostgresDb(t.url, 5) : null;
    engines.push(createEngine(t.db, config), createEngine(second ?? t.db, config));
    await Promise.all(engines.map((e) => e.start()));

    const deadline = Date.now() + 90_000;
    let open = 1;
    while (open > 0 && Date.now() < deadline) {
      [{ n: open }] = await t.db.query<{ n: number }>(
        `select count(*)::int as n from workflow_runs where account_id = $1 and status in ('queued', 'running')`,
        [a.id],
      );
      if (open) await new Promise((r) => setTimeout(r, 100));
    }
    expect(open).toBe(0);

    const [acct] = await t.db.query<{ credit_micros: number }>('select credit_micros from accounts where id = $1', [a.id]);
    const [ledger] = await t.db.query<{ s: number; n: number }>(
      'select coalesce(sum(micros), 0)::bigint as s, count(*)::int as n from billing_ledger where account_id = $1',
      [a.id],
    );
    const [billed] = await t.db.query<{ s: number }>('select coalesce(sum(billed_micros), 0)::bigint as s from workflow_runs where account_id = $1', [a.id]);
    const spend = await t.db.query<{ key_id: string; spent_micros: number }>('select key_id, spent_micros from api_key_spend where account_id = $1', [a.id]);
    const capped = spend.find((s) => s.key_id === a.key_ids.capped)?.spent_micros ?? 0;
    const statuses = await t.db.query<{ status: string; summary: string; n: number }>(
      `select status, summary, count(*)::int as n from workflow_runs where account_id = $1 group by status, summary order by status`,
      [a.id],
    );

    expect(acct.credit_micros).toBeGreaterThanOrEqual(0);
    expect(capped).toBeLessThanOrEqual(CAP);
    expect(ledger.s).toBe(CREDIT - acct.credit_micros);
    expect(billed.s).toBe(ledger.s);
    expect(spend.reduce((x, s) => x + s.spent_micros, 0)).toBe(ledger.s);
    // Some runs were paid for and some were stopped by a limit: the storm really hit the limits.
    const byStatus = Object.fromEntries(statuses.map((s) => [`${s.status}`, s]));
    expect(byStatus.succeeded?.n ?? 0).toBeGreaterThan(0);
    expect(byStatus.partial?.n ?? 0).toBeGreaterThan(0);
    expect(byStatus.partial.summary).toBe('Stopped: spend limit reached');
    expect(statuses.every((s) => s.status === 'succeeded' || s.status === 'partial')).toBe(true);
  });
});
