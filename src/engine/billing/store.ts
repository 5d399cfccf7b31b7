// The SQL of billing (docs/architecture.md §10.7). Every statement that moves a counter is a single
// guarded statement, so the guard and the write are one atomic step under concurrency: no
// read-then-write window in which two charges could both see room that only one of them may use.
//
// "Now" is always the database's `now()` (the transaction's start time) in UTC: the ledger day and
// the spend month are both taken from the same clock, so a charge and its counters always agree on
// which day and month they belong to, whatever the server process's clock or time zone says.
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';
import { NON_FINAL } from '../../domain/workflow.js';
import { accountMayWorkSql } from '../../accounts/activity.js';

/** The first day of the current UTC calendar month, the key of api_key_spend rows. */
const MONTH = `date_trunc('month', now() at time zone 'utc')::date`;
/** The current UTC date, the ledger's `day`. */
const DAY = `(now() at time zone 'utc')::date`;

// int8 comes back as a JS number from both adapters today; Number() keeps this code right if an
// adapter ever hands back a string or bigint (sums are cast to bigint for the same reason).
const num = (v: unknown): number => Number(v ?? 0);

export interface LedgerRow {
  id: string;
  accountId: string;
  keyId: string | null;
  workflowRunId: string | null;
  automationRunId: string | null;
  feature: string;
  micros: number;
  effectKey: string;
}

/**
 * Inserts the ledger row unless one with the same effect key exists. Returns false when it already
 * existed: that charge was made before (a retry or a resumed run) and must not be made again.
 * A concurrent insert of the same key waits for the other transaction: if it commits, this one
 * does nothing; if it rolls back (a refused charge), this one goes ahead.
 */
export async function insertLedgerRow(tx: Queryable, r: LedgerRow): Promise<boolean> {
  const rows = await tx.query(
    `insert into billing_ledger
       (account_id, id, day, feature, micros, key_id, workflow_run_id, automation_run_id, effect_key)
     values ($1, $2, ${DAY}, $3, $4, $5, $6, $7, $8)
     on conflict (account_id, effect_key) where effect_key is not null do nothing
     returning id`,
    [r.accountId, r.id, r.feature, r.micros, r.keyId, r.workflowRunId, r.automationRunId, r.effectKey],
  );
  return rows.length === 1;
}

/**
 * Adds to a workflow run's billed_micros while the run is not final: what a client read at the
 * final status stays true ("poll until status is final"). 'ended' when the run is final already
 * (the row lock makes a concurrent cancel and this charge take turns), 'missing' when there is no
 * such run in the account.
 */
export async function addToRun(tx: Queryable, accountId: string, runId: string, micros: number): Promise<'ok' | 'ended' | 'missing'> {
  const rows = await tx.query(
    `update workflow_runs set billed_micros = billed_micros + $3
      where account_id = $1 and id = $2 and status = any($4::text[])
      returning id`,
    [accountId, runId, micros, NON_FINAL],
  );
  if (rows.length === 1) return 'ok';
  const run = await tx.query('select 1 from workflow_runs where account_id = $1 and id = $2', [accountId, runId]);
  return run.length === 1 ? 'ended' : 'missing';
}

/**
 * Takes micros from the balance only if it covers them and the account may work (an account that
 * is suspended, lapsed or closed is billed nothing: 'account'). The row lock taken by the UPDATE
 * makes a concurrent charge (or state change) wait and then re-check the guard against the
 * committed row, so the balance can never go below zero (the table's check constraint is the last
 * line of defence) and no charge lands after a suspension or closing commits.
 */
export async function debitAccount(tx: Queryable, accountId: string, micros: number): Promise<'ok' | 'credit' | 'account'> {
  const rows = await tx.query(
    `update accounts set credit_micros = credit_micros - $2
      where id = $1 and credit_micros >= $2 and ${accountMayWorkSql('accounts')}
      returning credit_micros`,
    [accountId, micros],
  );
  if (rows.length === 1) return 'ok';
  const [a] = await tx.query<{ may: boolean }>(`select ${accountMayWorkSql('accounts')} as may from accounts where id = $1`, [accountId]);
  return a !== undefined && !a.may ? 'account' : 'credit';
}

/**
 * Adds micros to the key's spend for the current UTC month, within its cap, in one statement:
 * - no row yet this month: the INSERT happens only if micros alone fit under the cap;
 * - a row exists: ON CONFLICT locks it and evaluates the WHERE on its latest committed version,
 *   so two concurrent charges cannot both pass the cap check.
 * The cap is read inside the same statement. A key without a cap still gets its row (spend is
 * tracked for every key, and the ledger must always equal the counters).
 * Returns 'ok', 'cap' (over the cap), or 'no_key' (the key is not in this account).
 */
export async function addKeySpend(
  tx: Queryable,
  accountId: string,
  keyId: string,
  micros: number,
): Promise<'ok' | 'cap' | 'no_key'> {
  const rows = await tx.query(
    `with k as (
       select monthly_spend_cap_micros as cap from api_keys where id = $2 and account_id = $1
     )
     insert into api_key_spend as s (account_id, key_id, month, spent_micros)
     select $1, $2, ${MONTH}, $3::bigint from k where k.cap is null or $3::bigint <= k.cap
     on conflict (account_id, key_id, month) do update
       set spent_micros = s.spent_micros + excluded.spent_micros
       where (select cap from k) is null or s.spent_micros + excluded.spent_micros <= (select cap from k)
     returning s.spent_micros`,
    [accountId, keyId, micros],
  );
  if (rows.length === 1) return 'ok';
  // The refusal path only: tell a cap from a key that does not exist (a caller's bug, not a limit).
  const key = await tx.query('select 1 from api_keys where id = $2 and account_id = $1', [accountId, keyId]);
  return key.length === 1 ? 'cap' : 'no_key';
}

export interface Standing {
  /** null when the account does not exist. */
  balance: number | null;
  /** null when there is no key, or the key has no cap. */
  cap: number | null;
  spent: number;
  /** The cap in force when a run or charge was stopped by it this month; null if none was. */
  capStop: number | null;
  /** The balance a run or charge was stopped at for want of credit; null if none was. */
  creditStop: number | null;
}

/** The account's balance and the key's cap and spend this month, read together. */
export async function standing(db: Queryable, accountId: string, keyId: string | null): Promise<Standing> {
  const rows = await db.query<{ balance: unknown; credit_stop: unknown; cap: unknown; spent: unknown; cap_stop: unknown }>(
    `select a.credit_micros as balance, a.credit_stop_micros as credit_stop,
            k.monthly_spend_cap_micros as cap,
            coalesce(s.spent_micros, 0) as spent, s.cap_stop_micros as cap_stop
       from (select 1) one
       left join accounts a on a.id = $1
       left join api_keys k on k.id = $2::uuid and k.account_id = $1
       left join api_key_spend s on s.account_id = k.account_id and s.key_id = k.id and s.month = ${MONTH}`,
    [accountId, keyId],
  );
  const r = oneRow(rows, 'standing (selected from one row by construction)');
  const orNull = (v: unknown) => (v === null || v === undefined ? null : num(v));
  return {
    balance: orNull(r.balance),
    cap: orNull(r.cap),
    spent: num(r.spent),
    capStop: orNull(r.cap_stop),
    creditStop: orNull(r.credit_stop),
  };
}

/** Remembers that the key's cap, as it is now, stopped a run or charge this UTC month. */
export async function recordCapStop(db: Queryable, accountId: string, keyId: string): Promise<void> {
  await db.query(
    `insert into api_key_spend as s (account_id, key_id, month, spent_micros, cap_stop_micros)
     select k.account_id, k.id, ${MONTH}, 0, k.monthly_spend_cap_micros
       from api_keys k where k.id = $2 and k.account_id = $1 and k.monthly_spend_cap_micros is not null
     on conflict (account_id, key_id, month) do update set cap_stop_micros = excluded.cap_stop_micros`,
    [accountId, keyId],
  );
}

/** Remembers the balance at which a run or charge was stopped for want of credit. */
export async function recordCreditStop(db: Queryable, accountId: string): Promise<void> {
  await db.query(`update accounts set credit_stop_micros = credit_micros where id = $1`, [accountId]);
}

/** What the key has spent in the current UTC month (0 when nothing yet or no such key). */
export async function keySpendThisMonth(db: Queryable, keyId: string): Promise<number> {
  // Through api_keys: the spend table's primary key leads with account_id, so the lookup uses it.
  const [row] = await db.query<{ spent: unknown }>(
    `select s.spent_micros as spent
       from api_keys k
       join api_key_spend s on s.account_id = k.account_id and s.key_id = k.id and s.month = ${MONTH}
      where k.id = $1`,
    [keyId],
  );
  return row === undefined ? 0 : num(row.spent);
}
