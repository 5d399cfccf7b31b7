// Billing (docs/architecture.md §10.7): every billable event is a ledger row in micros, written in
// the same transaction as the guarded updates of the account's balance, the key's spend for the UTC
// month and the run's billed_micros. Either all of them move or none does, so the ledger sums
// always equal the counters, and concurrent charges (across pools and processes) cannot overspend.
//
// Lock order inside a charge is always: ledger effect key → workflow run → account → key month
// row. Every charge takes them in the same order, so concurrent charges queue up but never
// deadlock one another.
//
// Charging inside a caller's transaction: pass the caller's transaction handle as `tx`. The
// charge then runs under `savepoint billing_charge`: a refusal (or an error) rolls back only this
// charge's writes with `rollback to savepoint`, and the caller's earlier writes stay intact and
// its transaction usable. A successful charge is released into the caller's transaction and
// commits or rolls back with it. Charges on one transaction handle must be awaited one after the
// other (a connection runs one statement at a time; interleaved savepoints would mix up).
import type { Db, Queryable } from '../../db/db.js';
import { uuidv7 } from '../../lib/ids.js';
import type { Billing, Charge, ChargeResult } from '../types.js';
import {
  addKeySpend,
  addToRun,
  debitAccount,
  insertLedgerRow,
  keySpendThisMonth,
  recordCapStop,
  recordCreditStop,
  standing,
  type Standing,
} from './store.js';

export type { Billing, Charge, ChargeResult } from '../types.js';

const SAVEPOINT = 'billing_charge';

type Refusal = Extract<ChargeResult, { ok: false }>;

/** Thrown inside our own transaction to roll it back; turned into the refusal outside. */
class Refused extends Error {
  constructor(readonly result: Refusal) {
    super(`charge refused: ${result.reason}`);
  }
}

/** A Db handed in as `tx` is not a transaction: a savepoint needs one connection in a transaction. */
function isDb(q: Queryable): q is Db {
  return typeof (q as Partial<Db>).transaction === 'function';
}

function check(c: Charge): void {
  if (!Number.isSafeInteger(c.micros) || c.micros < 0) {
    throw new RangeError(`charge micros must be a non-negative integer, got ${c.micros}`);
  }
  if (typeof c.effectKey !== 'string' || c.effectKey.length === 0) {
    // Without an effect key a retry would be charged twice: refuse to charge at all.
    throw new TypeError('a charge needs a non-empty effectKey');
  }
  if (typeof c.feature !== 'string' || c.feature.length === 0) {
    throw new TypeError('a charge needs a feature');
  }
}

/**
 * The writes of one charge, in lock order. Returns a refusal without undoing anything: the
 * callers below undo it (own transaction: roll back; caller's transaction: savepoint).
 */
async function apply(tx: Queryable, c: Charge): Promise<ChargeResult> {
  const fresh = await insertLedgerRow(tx, {
    id: uuidv7(),
    accountId: c.accountId,
    keyId: c.keyId,
    workflowRunId: c.workflowRunId ?? null,
    automationRunId: c.automationRunId ?? null,
    feature: c.feature,
    micros: c.micros,
    effectKey: c.effectKey,
  });
  // Already charged under this effect key (a retry, or a run resumed after a crash): the counters
  // moved with that first row, so they must not move again.
  if (!fresh) return { ok: true };

  if (c.workflowRunId !== undefined) {
    const run = await addToRun(tx, c.accountId, c.workflowRunId, c.micros);
    // A final run is billed nothing more (the charge is undone whole, ledger row included).
    if (run === 'ended') return { ok: false, reason: 'ended' };
    // An unknown run is a caller's bug; charging anyway would break ledger = sum(billed_micros).
    if (run === 'missing') throw new Error(`billing: workflow run ${c.workflowRunId} not found in account ${c.accountId}`);
  }
  const debit = await debitAccount(tx, c.accountId, c.micros);
  if (debit !== 'ok') return { ok: false, reason: debit };
  if (c.keyId !== null) {
    const spend = await addKeySpend(tx, c.accountId, c.keyId, c.micros);
    if (spend === 'cap') return { ok: false, reason: 'cap' };
    if (spend === 'no_key') throw new Error(`billing: API key ${c.keyId} not found in account ${c.accountId}`);
  }
  return { ok: true };
}

async function chargeInOwnTransaction(db: Db, c: Charge): Promise<ChargeResult> {
  try {
    return await db.transaction(
      async (tx) => {
        const result = await apply(tx, c);
        if (!result.ok) throw new Refused(result);
        return result;
      },
      { replayable: true, name: 'charge' },
    );
  } catch (err) {
    if (err instanceof Refused) return err.result;
    throw err;
  }
}

async function chargeInCallerTransaction(tx: Queryable, c: Charge): Promise<ChargeResult> {
  await tx.query(`savepoint ${SAVEPOINT}`);
  let result: ChargeResult;
  try {
    result = await apply(tx, c);
  } catch (err) {
    // Leave the caller's transaction usable (PostgreSQL aborts it on an error otherwise) and let
    // the caller decide what the error means. If even this fails, the original error matters more.
    await tx
      .query(`rollback to savepoint ${SAVEPOINT}`)
      .then(() => tx.query(`release savepoint ${SAVEPOINT}`))
      .catch(() => {});
    throw err;
  }
  if (!result.ok) await tx.query(`rollback to savepoint ${SAVEPOINT}`);
  await tx.query(`release savepoint ${SAVEPOINT}`);
  return result;
}

export function createBilling(db: Db): Billing {
  return {
    async charge(c: Charge, tx?: Queryable): Promise<ChargeResult> {
      check(c);
      // Nothing to record: a zero charge can neither be refused nor change any sum.
      if (c.micros === 0) return { ok: true };
      if (tx === undefined || isDb(tx)) return chargeInOwnTransaction(tx ?? db, c);
      return chargeInCallerTransaction(tx, c);
    },

    headroom(accountId: string, keyId: string | null): Promise<number> {
      return headroom(db, accountId, keyId);
    },

    recordStop(accountId: string, keyId: string | null, reason?: 'credit' | 'cap', tx?: Queryable): Promise<'credit' | 'cap'> {
      return recordStop(tx ?? db, accountId, keyId, reason);
    },
  };
}

/**
 * A run or step was stopped by a limit: a charge refused for `reason`, or (no reason) what is left
 * cannot pay for its next call, in which case the binding limit is found here (both when they are
 * equal). Remembers it, so the API refuses further starts with 402 until credit is added or the
 * cap raised. Returns the one to name (the key's cap when it binds). A refused charge itself
 * writes nothing: the caller that stops on it records the stop.
 */
export async function recordStop(db: Queryable, accountId: string, keyId: string | null, reason?: 'credit' | 'cap'): Promise<'credit' | 'cap'> {
  if (reason === 'cap' && keyId !== null) await recordCapStop(db, accountId, keyId);
  if (reason === 'credit') await recordCreditStop(db, accountId);
  if (reason) return reason;
  const s = await standing(db, accountId, keyId);
  const balance = s.balance ?? 0;
  const capRoom = s.cap === null ? Number.POSITIVE_INFINITY : s.cap - s.spent;
  if (keyId !== null && capRoom <= balance) await recordCapStop(db, accountId, keyId);
  if (balance <= capRoom) await recordCreditStop(db, accountId);
  return capRoom <= balance ? 'cap' : 'credit';
}

/**
 * What the account and key may still spend: the balance, or the cap's headroom this month when
 * that is smaller. Never negative (a cap lowered below this month's spend gives 0). An unknown
 * account has nothing to spend.
 */
export async function headroom(db: Queryable, accountId: string, keyId: string | null): Promise<number> {
  const s = await standing(db, accountId, keyId);
  const balance = s.balance ?? 0;
  const room = s.cap === null ? balance : Math.min(balance, s.cap - s.spent);
  return Math.max(0, room);
}

/** What the key has spent in the current UTC calendar month, in micros. */
export function spendThisMonth(db: Queryable, keyId: string): Promise<number> {
  return keySpendThisMonth(db, keyId);
}

/** The cap is reached: all of it spent, or a run was stopped by it and it has not been raised since. */
export const capReached = (s: Standing): boolean =>
  s.cap !== null && (s.spent >= s.cap || (s.capStop !== null && s.cap <= s.capStop));

/** Out of credit: a zero balance, or a run was stopped for want of credit and none was added since. */
export const outOfCredit = (s: Standing): boolean =>
  s.balance === null || s.balance <= 0 || (s.creditStop !== null && s.balance <= s.creditStop);

/**
 * For the API's `402 key_spend_cap_reached` pre-check (see capReached). A key without a cap (or
 * no key) never reaches one.
 */
export async function keyCapReached(db: Queryable, accountId: string, keyId: string | null): Promise<boolean> {
  if (keyId === null) return false;
  return capReached(await standing(db, accountId, keyId));
}

/**
 * For the API's `402 account_out_of_credit` pre-check (see outOfCredit). An unknown account
 * counts as out of credit: it has nothing to spend.
 */
export async function accountOutOfCredit(db: Queryable, accountId: string): Promise<boolean> {
  return outOfCredit(await standing(db, accountId, null));
}
