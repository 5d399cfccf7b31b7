// Billing charges (docs/architecture.md §10.7): the ledger row and the counters (balance, key month
// spend, run's billed_micros) move together or not at all; retries with the same effect key are
// charged once; refusals for credit and cap write nothing; a charge inside a caller's transaction
// rolls back only its own writes. Plus headroom and the API's 402 pre-checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/db.js';
import {
  accountOutOfCredit,
  createBilling,
  headroom,
  keyCapReached,
  recordStop,
  spendThisMonth,
} from '../../../src/engine/billing/index.js';
import type { Billing, Charge } from '../../../src/engine/types.js';
import { uuidv7 } from '../../../src/lib/ids.js';
import { freshDb, type TestDb } from '../../helpers/db.js';
import { balance, billed, ledger, seedAccount, spendRows, utcMonth } from './support.js';

let t: TestDb;
let db: Db;
let billing: Billing;

beforeAll(async () => {
  t = await freshDb();
  db = t.db;
  billing = createBilling(db);
});
afterAll(async () => {
  await t?.close();
});

const charge = (accountId: string, keyId: string | null, micros: number, extra: Partial<Charge> = {}): Charge => ({
  accountId,
  keyId,
  feature: 'llm.tokens',
  micros,
  effectKey: `e-${uuidv7()}`,
  ...extra,
});

describe('charge', () => {
  it('moves the balance, the key month row and billed_micros, and writes one ledger row', async () => {
    const f = await seedAccount(db, { credit: 1_000, keys: { capped: 500, free: null } });
    const c = charge(f.accountId, f.keys.capped, 120, { workflowRunId: f.runs[0], effectKey: 'run1:agent' });
    expect(await billing.charge(c)).toEqual({ ok: true });

    expect(await balance(db, f.accountId)).toBe(880);
    expect(await spendRows(db, f.accountId, f.keys.capped)).toEqual([[utcMonth(), 120]]);
    expect(await billed(db, f.accountId, f.runs[0])).toBe(120);
    const rows = await ledger(db, f.accountId);
    expect(rows).toEqual([
      {
        micros: 120,
        key_id: f.keys.capped,
        workflow_run_id: f.runs[0],
        automation_run_id: null,
        feature: 'llm.tokens',
        effect_key: 'run1:agent',
        day: new Date().toISOString().slice(0, 10),
      },
    ]);
    expect(await spendThisMonth(db, f.keys.capped)).toBe(120);

    // A key without a cap still has its spend tracked; a charge without a key touches no key row.
    expect(await billing.charge(charge(f.accountId, f.keys.free, 30))).toEqual({ ok: true });
    expect(await spendRows(db, f.accountId, f.keys.free)).toEqual([[utcMonth(), 30]]);
    expect(await billing.charge(charge(f.accountId, null, 50, { feature: 'sms' }))).toEqual({ ok: true });
    expect(await balance(db, f.accountId)).toBe(800);
    expect(await spendThisMonth(db, f.keys.capped)).toBe(120);
    expect((await ledger(db, f.accountId)).map((r) => r.micros)).toEqual([120, 30, 50]);
  });

  it('records the automation run on the ledger row', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: null } });
    const automationRunId = uuidv7();
    expect(await billing.charge(charge(f.accountId, f.keys.k, 10, { automationRunId, feature: 'sms' }))).toEqual({ ok: true });
    const [row] = await ledger(db, f.accountId);
    expect(row).toMatchObject({ automation_run_id: automationRunId, workflow_run_id: null, feature: 'sms', micros: 10 });
  });

  it('charges the same effect key once (retries and resumed runs)', async () => {
    const f = await seedAccount(db, { credit: 1_000, keys: { k: 800 } });
    const c = charge(f.accountId, f.keys.k, 100, { workflowRunId: f.runs[0], effectKey: 'run:step-1' });
    expect(await billing.charge(c)).toEqual({ ok: true });
    expect(await billing.charge(c)).toEqual({ ok: true });
    // Even concurrently, and even if the retry claims a different amount: the first charge stands.
    const again = await Promise.all([1, 2, 3].map(() => billing.charge({ ...c, micros: 5 })));
    expect(again).toEqual([{ ok: true }, { ok: true }, { ok: true }]);

    expect(await balance(db, f.accountId)).toBe(900);
    expect(await spendThisMonth(db, f.keys.k)).toBe(100);
    expect(await billed(db, f.accountId, f.runs[0])).toBe(100);
    expect(await ledger(db, f.accountId)).toHaveLength(1);
  });

  it('the same effect key in two accounts is two charges', async () => {
    const a = await seedAccount(db, { credit: 100, keys: { k: null } });
    const b = await seedAccount(db, { credit: 100, keys: { k: null } });
    expect(await billing.charge(charge(a.accountId, a.keys.k, 10, { effectKey: 'shared' }))).toEqual({ ok: true });
    expect(await billing.charge(charge(b.accountId, b.keys.k, 10, { effectKey: 'shared' }))).toEqual({ ok: true });
    expect([await balance(db, a.accountId), await balance(db, b.accountId)]).toEqual([90, 90]);
  });

  it('refuses a charge the balance cannot cover, and writes nothing', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: 1_000 } });
    const c = charge(f.accountId, f.keys.k, 101, { workflowRunId: f.runs[0] });
    expect(await billing.charge(c)).toEqual({ ok: false, reason: 'credit' });
    expect(await balance(db, f.accountId)).toBe(100);
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([]);
    expect(await billed(db, f.accountId, f.runs[0])).toBe(0);
    expect(await ledger(db, f.accountId)).toEqual([]);

    // The refusal did not use up the effect key: once affordable, the same charge goes through.
    expect(await billing.charge({ ...c, micros: 100 })).toEqual({ ok: true });
    expect(await balance(db, f.accountId)).toBe(0);
    expect(await accountOutOfCredit(db, f.accountId)).toBe(true);
    expect(await billing.charge(charge(f.accountId, f.keys.k, 1))).toEqual({ ok: false, reason: 'credit' });
  });

  it('refuses a charge over the key cap, and writes nothing', async () => {
    const f = await seedAccount(db, { credit: 10_000, keys: { k: 300 } });
    // Over the cap on the first charge of the month (no spend row yet).
    const first = charge(f.accountId, f.keys.k, 301, { workflowRunId: f.runs[0] });
    expect(await billing.charge(first)).toEqual({ ok: false, reason: 'cap' });
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([]);
    expect(await balance(db, f.accountId)).toBe(10_000);

    expect(await billing.charge(charge(f.accountId, f.keys.k, 200, { workflowRunId: f.runs[0] }))).toEqual({ ok: true });
    // Over the cap with the month row present.
    expect(await billing.charge(charge(f.accountId, f.keys.k, 101, { workflowRunId: f.runs[0] }))).toEqual({
      ok: false,
      reason: 'cap',
    });
    expect(await balance(db, f.accountId)).toBe(9_800);
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([[utcMonth(), 200]]);
    expect(await billed(db, f.accountId, f.runs[0])).toBe(200);
    expect((await ledger(db, f.accountId)).map((r) => r.micros)).toEqual([200]);
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(false);

    // Exactly up to the cap is allowed; then the cap is reached.
    expect(await billing.charge(charge(f.accountId, f.keys.k, 100))).toEqual({ ok: true });
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(true);
    expect(await billing.charge(charge(f.accountId, f.keys.k, 1))).toEqual({ ok: false, reason: 'cap' });
  });

  it('records nothing for a zero charge, and rejects bad charges', async () => {
    const f = await seedAccount(db, { credit: 0, keys: { k: 5 } });
    expect(await billing.charge(charge(f.accountId, f.keys.k, 0, { workflowRunId: f.runs[0] }))).toEqual({ ok: true });
    expect(await ledger(db, f.accountId)).toEqual([]);
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([]);
    await expect(billing.charge(charge(f.accountId, f.keys.k, -1))).rejects.toThrow(RangeError);
    await expect(billing.charge(charge(f.accountId, f.keys.k, 1.5))).rejects.toThrow(RangeError);
    await expect(billing.charge(charge(f.accountId, f.keys.k, 1, { effectKey: '' }))).rejects.toThrow(TypeError);
  });

  it('throws (and writes nothing) for a run or key not in the account', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: null } });
    const other = await seedAccount(db, { credit: 100, keys: { k: null } });
    await expect(billing.charge(charge(f.accountId, f.keys.k, 10, { workflowRunId: other.runs[0] }))).rejects.toThrow(
      /workflow run .* not found/,
    );
    await expect(billing.charge(charge(f.accountId, other.keys.k, 10))).rejects.toThrow(/API key .* not found/);
    expect(await balance(db, f.accountId)).toBe(100);
    expect(await ledger(db, f.accountId)).toEqual([]);
  });
});

describe('charge inside a caller transaction', () => {
  it('a refusal rolls back only the charge; the caller’s earlier and later writes commit', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: 60 } });
    const results = await db.transaction(async (tx) => {
      await tx.query(`update workflow_runs set summary = 'before' where account_id = $1 and id = $2`, [f.accountId, f.runs[0]]);
      const ok = await billing.charge(charge(f.accountId, f.keys.k, 50, { workflowRunId: f.runs[0] }), tx);
      const cap = await billing.charge(charge(f.accountId, f.keys.k, 20, { workflowRunId: f.runs[0] }), tx);
      const credit = await billing.charge(charge(f.accountId, null, 70, { workflowRunId: f.runs[0] }), tx);
      // The transaction is still usable after the refusals, and sees only the successful charge.
      expect(await balance(tx, f.accountId)).toBe(50);
      await tx.query(`update workflow_runs set status = 'partial' where account_id = $1 and id = $2`, [f.accountId, f.runs[0]]);
      return [ok, cap, credit];
    });
    expect(results).toEqual([{ ok: true }, { ok: false, reason: 'cap' }, { ok: false, reason: 'credit' }]);
    const [run] = await db.query<{ summary: string; status: string }>(
      'select summary, status from workflow_runs where account_id = $1 and id = $2',
      [f.accountId, f.runs[0]],
    );
    expect(run).toEqual({ summary: 'before', status: 'partial' });
    expect(await balance(db, f.accountId)).toBe(50);
    expect(await spendThisMonth(db, f.keys.k)).toBe(50);
    expect(await billed(db, f.accountId, f.runs[0])).toBe(50);
    expect((await ledger(db, f.accountId)).map((r) => r.micros)).toEqual([50]);
  });

  it('an error in the charge leaves the caller’s transaction usable', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: null } });
    await db.transaction(async (tx) => {
      await tx.query(`update workflow_runs set summary = 'kept' where account_id = $1 and id = $2`, [f.accountId, f.runs[0]]);
      await expect(billing.charge(charge(f.accountId, f.keys.k, 10, { workflowRunId: uuidv7() }), tx)).rejects.toThrow(
        /not found/,
      );
      expect(await billing.charge(charge(f.accountId, f.keys.k, 10), tx)).toEqual({ ok: true });
    });
    const [run] = await db.query<{ summary: string }>('select summary from workflow_runs where account_id = $1 and id = $2', [
      f.accountId,
      f.runs[0],
    ]);
    expect(run.summary).toBe('kept');
    expect(await balance(db, f.accountId)).toBe(90);
  });

  it('a successful charge rolls back with the caller’s transaction', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: null } });
    const c = charge(f.accountId, f.keys.k, 40, { workflowRunId: f.runs[0] });
    await expect(
      db.transaction(async (tx) => {
        expect(await billing.charge(c, tx)).toEqual({ ok: true });
        throw new Error('the step failed after charging');
      }),
    ).rejects.toThrow('the step failed');
    expect(await balance(db, f.accountId)).toBe(100);
    expect(await ledger(db, f.accountId)).toEqual([]);
    expect(await spendThisMonth(db, f.keys.k)).toBe(0);
    expect(await billed(db, f.accountId, f.runs[0])).toBe(0);
    // The effect key was not used up by the rolled-back attempt.
    expect(await billing.charge(c)).toEqual({ ok: true });
    expect(await balance(db, f.accountId)).toBe(60);
  });

  it('the Db itself passed as tx gets its own transaction', async () => {
    const f = await seedAccount(db, { credit: 10, keys: { k: null } });
    expect(await billing.charge(charge(f.accountId, f.keys.k, 11), db)).toEqual({ ok: false, reason: 'credit' });
    expect(await billing.charge(charge(f.accountId, f.keys.k, 10), db)).toEqual({ ok: true });
    expect(await balance(db, f.accountId)).toBe(0);
  });
});

describe('headroom and the 402 pre-checks', () => {
  it('is the smaller of the balance and the cap headroom, never negative', async () => {
    const f = await seedAccount(db, { credit: 1_000, keys: { capped: 300, free: null } });
    expect(await billing.headroom(f.accountId, f.keys.capped)).toBe(300);
    expect(await billing.headroom(f.accountId, f.keys.free)).toBe(1_000);
    expect(await billing.headroom(f.accountId, null)).toBe(1_000);

    expect(await billing.charge(charge(f.accountId, f.keys.capped, 250))).toEqual({ ok: true });
    expect(await billing.headroom(f.accountId, f.keys.capped)).toBe(50);
    expect(await billing.headroom(f.accountId, f.keys.free)).toBe(750);

    expect(await billing.charge(charge(f.accountId, f.keys.free, 740))).toEqual({ ok: true });
    expect(await billing.headroom(f.accountId, f.keys.capped)).toBe(10); // the balance is smaller now
    expect(await headroom(db, f.accountId, f.keys.free)).toBe(10);

    // An owner lowers the cap below what the key already spent: no headroom, not a negative one.
    await db.query('update api_keys set monthly_spend_cap_micros = 100 where id = $1', [f.keys.capped]);
    expect(await billing.headroom(f.accountId, f.keys.capped)).toBe(0);
    expect(await keyCapReached(db, f.accountId, f.keys.capped)).toBe(true);
    // Raising it again gives room again.
    await db.query('update api_keys set monthly_spend_cap_micros = 255 where id = $1', [f.keys.capped]);
    expect(await keyCapReached(db, f.accountId, f.keys.capped)).toBe(false);
    expect(await billing.headroom(f.accountId, f.keys.capped)).toBe(5);
  });

  it('spend from earlier months does not count against this month', async () => {
    const f = await seedAccount(db, { credit: 1_000, keys: { k: 100 } });
    await db.query(`insert into api_key_spend (account_id, key_id, month, spent_micros) values ($1, $2, '2020-01-01', 100)`, [
      f.accountId,
      f.keys.k,
    ]);
    expect(await spendThisMonth(db, f.keys.k)).toBe(0);
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(false);
    expect(await billing.headroom(f.accountId, f.keys.k)).toBe(100);
    expect(await billing.charge(charge(f.accountId, f.keys.k, 100))).toEqual({ ok: true });
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([
      ['2020-01-01', 100],
      [utcMonth(), 100],
    ]);
  });

  it('accountOutOfCredit and keyCapReached', async () => {
    const f = await seedAccount(db, { credit: 0, keys: { capped: 10, free: null } });
    const g = await seedAccount(db, { credit: 1, keys: {} });
    expect(await accountOutOfCredit(db, f.accountId)).toBe(true);
    expect(await accountOutOfCredit(db, g.accountId)).toBe(false);
    expect(await accountOutOfCredit(db, uuidv7())).toBe(true);
    expect(await keyCapReached(db, f.accountId, f.keys.capped)).toBe(false);
    expect(await keyCapReached(db, f.accountId, f.keys.free)).toBe(false);
    expect(await keyCapReached(db, f.accountId, null)).toBe(false);
    expect(await billing.headroom(f.accountId, f.keys.capped)).toBe(0);
    expect(await billing.headroom(uuidv7(), null)).toBe(0);
    // Inside a transaction, as the start-a-run check uses them.
    expect(await db.transaction((tx) => accountOutOfCredit(tx, g.accountId))).toBe(false);
  });
});

// Limits rule 4: "a run that reaches [the cap] is stopped and further starts give 402". A run is
// stopped when what is left cannot pay for its next call, which is usually before spend equals
// the cap (or the balance reaches 0): the stop itself is what makes further starts 402.
describe('stops: a run stopped by a limit makes further starts 402 until the limit moves', () => {
  it('the key cap binding: reached from the stop on; raising the cap lifts it, lowering does not', async () => {
    const f = await seedAccount(db, { credit: 10_000, keys: { k: 500 } });
    expect(await billing.charge(charge(f.accountId, f.keys.k, 450))).toEqual({ ok: true });
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(false); // 50 left: still startable
    expect(await recordStop(db, f.accountId, f.keys.k)).toBe('cap');
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(true);
    expect(await accountOutOfCredit(db, f.accountId)).toBe(false); // the balance did not stop it
    await db.query('update api_keys set monthly_spend_cap_micros = 480 where id = $1', [f.keys.k]);
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(true);
    await db.query('update api_keys set monthly_spend_cap_micros = 501 where id = $1', [f.keys.k]);
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(false);
    // The stop is this month's: spend, the ledger and the balance are untouched by it.
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([[utcMonth(), 450]]);
    expect(await balance(db, f.accountId)).toBe(9_550);
  });

  it('a stop by a refused charge names its reason; before any spend it still opens the month row', async () => {
    const f = await seedAccount(db, { credit: 10_000, keys: { k: 300 } });
    expect(await billing.charge(charge(f.accountId, f.keys.k, 301))).toEqual({ ok: false, reason: 'cap' });
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(false); // a refusal alone writes nothing
    expect(await billing.recordStop(f.accountId, f.keys.k, 'cap')).toBe('cap');
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(true);
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([[utcMonth(), 0]]);
    expect(await ledger(db, f.accountId)).toEqual([]);
  });

  it('the balance binding: out of credit from the stop on; credit added lifts it, more spending does not', async () => {
    const f = await seedAccount(db, { credit: 80, keys: { k: 10_000, free: null } });
    expect(await recordStop(db, f.accountId, f.keys.k)).toBe('credit');
    expect(await accountOutOfCredit(db, f.accountId)).toBe(true);
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(false);
    expect(await billing.charge(charge(f.accountId, f.keys.free, 30))).toEqual({ ok: true });
    expect(await accountOutOfCredit(db, f.accountId)).toBe(true);
    await db.query('update accounts set credit_micros = credit_micros + 1000 where id = $1', [f.accountId]);
    expect(await accountOutOfCredit(db, f.accountId)).toBe(false);
    // Without a key (a run from the hub) only the balance can bind.
    const g = await seedAccount(db, { credit: 5, keys: {} });
    expect(await billing.recordStop(g.accountId, null)).toBe('credit');
    expect(await accountOutOfCredit(db, g.accountId)).toBe(true);
  });

  it('both limits equal: both are remembered, and each must move', async () => {
    const f = await seedAccount(db, { credit: 100, keys: { k: 100 } });
    expect(await recordStop(db, f.accountId, f.keys.k)).toBe('cap');
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(true);
    expect(await accountOutOfCredit(db, f.accountId)).toBe(true);
    await db.query('update accounts set credit_micros = 1000 where id = $1', [f.accountId]);
    expect(await accountOutOfCredit(db, f.accountId)).toBe(false);
    expect(await keyCapReached(db, f.accountId, f.keys.k)).toBe(true);
  });
});

describe('a final workflow run is billed nothing more', () => {
  it('refuses a charge for a run that is final (reason ended), and writes nothing', async () => {
    const f = await seedAccount(db, { credit: 1_000, keys: { k: null } });
    await db.query(`update workflow_runs set status = 'cancelled', finished_at = now() where id = $1`, [f.runs[0]]);
    expect(await billing.charge(charge(f.accountId, f.keys.k, 100, { workflowRunId: f.runs[0] }))).toEqual({ ok: false, reason: 'ended' });
    expect(await billed(db, f.accountId, f.runs[0])).toBe(0);
    expect(await balance(db, f.accountId)).toBe(1_000);
    expect(await ledger(db, f.accountId)).toEqual([]);
    expect(await spendRows(db, f.accountId, f.keys.k)).toEqual([]);
    // An unknown run is still a caller's bug.
    await expect(billing.charge(charge(f.accountId, f.keys.k, 100, { workflowRunId: uuidv7() }))).rejects.toThrow(/not found/);
  });
});
