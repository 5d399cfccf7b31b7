// Issue 23 item 5: a start locks the account row while a worker's charge holds it for a foreign
// key. A charge inserts its ledger row (FOR KEY SHARE on the account, through the foreign key)
// and then debits the balance (an UPDATE of that row). A start that took the account with
// FOR UPDATE queued behind the KEY SHARE, the debit queued behind the start: a deadlock, and the
// start answered 500. Here a raw transaction plays the charge's two statements around a real
// start: the start must neither wait for the charge nor fail.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFixture } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { bearer } from '../http/fixtures.js';

const SCOPES = ['workflows:read', 'workflows:run'];

let t: TestApp;
let account: { id: string; key: string; workflow: string };

beforeAll(async () => {
  t = await testApp();
  const seeded = await seedFixture(
    t.db,
    {
      accounts: [
        {
          ref: 'a',
          name: 'a',
          credit_micros: 10_000_000,
          users: [{ ref: 'o', email: 'o@a.example', role: 'owner' }],
          keys: [{ ref: 'k', name: 'k', scopes: SCOPES }],
          workflows: [{ ref: 'wf', name: 'wf', status: 'active', blocks: [{ id: 'a', kind: 'source.text', config: { text: 'hi' } }], edges: [] }],
        },
      ],
    },
    { erasureSecret: Buffer.from('t') },
  );
  const a = seeded.accounts.a;
  account = { id: a.id, key: a.keys.k, workflow: a.workflows.wf };
});
afterAll(() => t?.close());

/** Backends of this database (other than `self`) waiting for a lock now. */
async function lockWaiters(client: pg.Client): Promise<number> {
  const r = await client.query<{ n: number }>(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
  );
  return r.rows[0].n;
}

describe('a start beside a charge of the same account (PostgreSQL)', () => {
  it('goes through without waiting for the charge, and the charge’s debit goes through after it', async () => {
    const charge = new pg.Client({ connectionString: t.url! });
    const watcher = new pg.Client({ connectionString: t.url! });
    await charge.connect();
    await watcher.connect();
    try {
      await charge.query('begin');
      // The charge's first statement: its foreign key takes FOR KEY SHARE on the account row.
      await charge.query(
        `insert into billing_ledger (account_id, id, day, feature, micros) values ($1, gen_random_uuid(), current_date, 'llm', 1)`,
        [account.id],
      );

      let answered = false;
      const start = t.app
        .inject({
          method: 'POST',
          url: `/v1/workflows/${account.workflow}/runs`,
          headers: { ...bearer(account.key), 'idempotency-key': `deadlock-${Date.now()}` },
        })
        .finally(() => (answered = true));

      // Either the start answers, or it is seen waiting for a lock (the charge's KEY SHARE).
      let waited = false;
      for (;;) {
        if (answered) break;
        if ((await lockWaiters(watcher)) > 0) {
          waited = true;
          break;
        }
        await new Promise((r) => setImmediate(r));
      }

      // The charge's second statement: the debit. Behind a waiting FOR UPDATE this was the deadlock.
      const debit = await charge
        .query('update accounts set credit_micros = credit_micros - 1 where id = $1', [account.id])
        .then(() => 'ok', (err: { code?: string }) => `failed: ${err.code}`);
      await charge.query(debit === 'ok' ? 'commit' : 'rollback');

      const res = await start;
      expect({ waited, debit, status: res.statusCode }).toEqual({ waited: false, debit: 'ok', status: 202 });
      const [run] = await t.db.query<{ n: number }>(`select count(*)::int as n from workflow_runs where id = $1`, [res.json().id]);
      expect(run.n).toBe(1);
    } finally {
      await charge.end();
      await watcher.end();
    }
  });
});
