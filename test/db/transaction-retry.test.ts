// Replayable transactions (src/db/tx-retry.ts): a deadlock or serialization failure runs the
// whole transaction again, a bounded number of times, and only when the call site says it may.
// Forced conflict codes on both stores. A real deadlock between two transactions on PostgreSQL:
// transaction-deadlock.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TX_MAX_ATTEMPTS } from '../../src/db/tx-retry.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
const logged: Array<Record<string, unknown>> = [];
const recorder = { warn: (obj: object) => void logged.push(obj as Record<string, unknown>) };

beforeAll(async () => {
  t = await freshDb();
  (t.db as unknown as { retryLog: typeof recorder }).retryLog = recorder;
  await t.db.query('create table tx_retry_probe (id int primary key, n int not null)');
  await t.db.query('insert into tx_retry_probe values (1, 0), (2, 0)');
});
afterAll(() => t?.close());

const conflict = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

async function valueOf(id: number): Promise<number> {
  const [r] = await t.db.query<{ n: number }>('select n from tx_retry_probe where id = $1', [id]);
  return r.n;
}

describe('a replayable transaction', () => {
  it.each(['40P01', '40001'])('is run again from the start after %s; the first attempt’s writes are rolled back', async (code) => {
    logged.length = 0;
    const before = await valueOf(1);
    let attempts = 0;
    const result = await t.db.transaction(
      async (tx) => {
        attempts++;
        await tx.query('update tx_retry_probe set n = n + 1 where id = 1');
        if (attempts === 1) throw conflict(code);
        return 'done';
      },
      { replayable: true, name: 'probe' },
    );
    expect(result).toBe('done');
    expect(attempts).toBe(2);
    expect(await valueOf(1)).toBe(before + 1); // once, not twice
    expect(logged).toEqual([expect.objectContaining({ transaction: 'probe', code, attempt: 1 })]);
  });

  it(`gives up after ${TX_MAX_ATTEMPTS} attempts and throws the conflict`, async () => {
    logged.length = 0;
    let attempts = 0;
    const run = t.db.transaction(
      async () => {
        attempts++;
        throw conflict('40P01');
      },
      { replayable: true, name: 'hopeless' },
    );
    await expect(run).rejects.toMatchObject({ code: '40P01' });
    expect(attempts).toBe(TX_MAX_ATTEMPTS);
    expect(logged).toHaveLength(TX_MAX_ATTEMPTS);
    expect(logged.at(-1)).toMatchObject({ transaction: 'hopeless', attempts: TX_MAX_ATTEMPTS });
  });

  it('is not run again after any other error', async () => {
    let attempts = 0;
    const run = t.db.transaction(
      async () => {
        attempts++;
        throw Object.assign(new Error('unique'), { code: '23505' });
      },
      { replayable: true },
    );
    await expect(run).rejects.toMatchObject({ code: '23505' });
    expect(attempts).toBe(1);
  });
});

describe('a transaction not marked replayable', () => {
  it('meets the conflict once, as before', async () => {
    let attempts = 0;
    const run = t.db.transaction(async () => {
      attempts++;
      throw conflict('40001');
    });
    await expect(run).rejects.toMatchObject({ code: '40001' });
    expect(attempts).toBe(1);
  });
});
