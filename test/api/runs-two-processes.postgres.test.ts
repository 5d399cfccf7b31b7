// Across processes: two API servers on one PostgreSQL database receive the same run start (same
// Idempotency-Key) at the same moment: exactly one run is created, and both answers carry it or
// say the first is still in progress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { startServer, type ServerProcess } from '../helpers/process.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

describe('idempotent run starts across processes', () => {
  // Two processes can share only PostgreSQL; the embedded store has one owner process.
  it('two API processes, one key, 20 concurrent requests → one run', { timeout: 180_000 }, async () => {
    const seeded = await seedFixture(
      t.db,
      {
        accounts: [
          {
            ref: 'a',
            name: 'a',
            credit_micros: 1_000_000,
            limits: { run_starts_per_minute: 1000, concurrent_runs: 1000 },
            users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
            keys: [{ ref: 'k', name: 'k', scopes: ['workflows:run'] }],
            workflows: [{ ref: 'wf', name: 'w', blocks: [{ id: 'a', kind: 'source.text', config: { text: 'x' } }], edges: [] }],
          },
        ],
      },
      { erasureSecret: Buffer.from('t') },
    );
    const a = seeded.accounts.a;
    const env = { DATABASE_URL: t.url!, SWITCHBOARD_AUTO_MIGRATE: 'false', SWITCHBOARD_RATE_LIMIT_STORE: 'postgres' };
    const servers: ServerProcess[] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const r = await fetch(`${servers[i % 2].baseUrl}/v1/workflows/${a.workflows.wf}/runs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${a.keys.k}`, 'idempotency-key': 'two-process-key-1' },
          });
          return { status: r.status, body: (await r.json()) as { id?: string; error?: { code: string } } };
        }),
      );
      const ok = answers.filter((x) => x.status === 202);
      expect(ok.length).toBeGreaterThanOrEqual(1);
      expect(new Set(ok.map((x) => x.body.id)).size).toBe(1);
      for (const x of answers.filter((y) => y.status !== 202)) expect(x.body.error?.code).toBe('idempotency_in_progress');
      const [n] = await t.db.query<{ n: number }>('select count(*)::int as n from workflow_runs where account_id = $1', [a.id]);
      expect(n.n).toBe(1);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });
});
