// A real deadlock between two transactions on PostgreSQL (PGlite has one session, so two of its
// transactions never wait for each other): a replayable victim is run again and both commit; a
// victim that is not replayable reaches its caller. Forced conflict codes on both stores:
// transaction-retry.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/db.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
const logged: Array<Record<string, unknown>> = [];
const recorder = { warn: (obj: object) => void logged.push(obj as Record<string, unknown>) };

beforeAll(async () => {
  t = await freshDb();
  await t.db.query('create table tx_retry_probe (id int primary key, n int not null)');
  await t.db.query('insert into tx_retry_probe values (1, 0), (2, 0)');
});
afterAll(() => t?.close());

async function valueOf(id: number): Promise<number> {
  const [r] = await t.db.query<{ n: number }>('select n from tx_retry_probe where id = $1', [id]);
  return r.n;
}

describe('a real deadlock', () => {
  /** Two transactions lock rows 1 and 2 in opposite orders, each waiting until the other holds its first row. */
  async function collide(replayable: boolean): Promise<{ results: PromiseSettledResult<number>[]; attempts: number }> {
    const db = new PostgresDb(t.url!, 4);
    db.retryLog = recorder;
    let attempts = 0;
    let firstLocks = 0;
    let bothHold!: () => void;
    const holding = new Promise<void>((resolve) => (bothHold = resolve));
    const body = (first: number, second: number) => async (tx: Queryable) => {
      attempts++;
      await tx.query('select n from tx_retry_probe where id = $1 for no key update', [first]);
      if (++firstLocks === 2) bothHold();
      await holding; // on a replay this is settled already: the retry runs straight through
      await tx.query('update tx_retry_probe set n = n + 1 where id = $1', [second]);
      return second;
    };
    try {
      const results = await Promise.allSettled([
        db.transaction(body(1, 2), { replayable, name: 'one' }),
        db.transaction(body(2, 1), { replayable, name: 'two' }),
      ]);
      return { results, attempts };
    } finally {
      await db.close();
    }
  }

  it('replayable: the victim is run again and both commit', async () => {
    logged.length = 0;
    const before = (await valueOf(1)) + (await valueOf(2));
    const { results, attempts } = await collide(true);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(attempts).toBe(3);
    expect((await valueOf(1)) + (await valueOf(2))).toBe(before + 2);
    expect(logged).toEqual([expect.objectContaining({ code: '40P01', attempt: 1 })]);
  });

  it('not replayable: the victim’s caller gets the deadlock (what every start and charge met before)', async () => {
    const { results, attempts } = await collide(false);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(attempts).toBe(2);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason).toMatchObject({ code: '40P01' });
  });
});
