// Shared set-up for the billing tests: an account with credit, keys with or without a monthly cap,
// a workflow with runs to charge against, and readers for every counter billing moves.
import type { Db, Queryable } from '../../../src/db/db.js';
import { seedFixture } from '../../../src/fixtures/load.js';
import { uuidv7 } from '../../../src/lib/ids.js';

export interface BillingFixture {
  accountId: string;
  /** Key ids by ref. */
  keys: Record<string, string>;
  /** Workflow run ids, in creation order. */
  runs: string[];
}

let n = 0;

/** Seeds one fresh account (tests in a file share a database, never an account). */
export async function seedAccount(
  db: Db,
  opts: { credit: number; keys: Record<string, number | null>; runs?: number },
): Promise<BillingFixture> {
  const ref = `acct${++n}`;
  const fixture = {
    accounts: [
      {
        ref,
        name: `Billing ${ref}`,
        credit_micros: opts.credit,
        users: [{ ref: 'owner', email: `owner@${ref}.example`, role: 'owner' }],
        keys: Object.entries(opts.keys).map(([k, cap]) => ({
          ref: k,
          name: `key ${k}`,
          scopes: ['workflows:run'],
          monthly_spend_cap_micros: cap,
        })),
      },
    ],
  };
  const seeded = (await seedFixture(db, fixture, { erasureSecret: Buffer.from('t') })).accounts[ref];
  const accountId = seeded.id;
  const workflowId = uuidv7();
  await db.query(`insert into workflows (account_id, id, name) values ($1, $2, 'billing test')`, [accountId, workflowId]);
  const runs: string[] = [];
  for (let i = 0; i < (opts.runs ?? 1); i++) {
    const id = uuidv7();
    await db.query(
      `insert into workflow_runs (account_id, id, workflow_id, trigger, status) values ($1, $2, $3, 'api', 'running')`,
      [accountId, id, workflowId],
    );
    runs.push(id);
  }
  return { accountId, keys: seeded.key_ids, runs };
}

export async function balance(db: Queryable, accountId: string): Promise<number> {
  const [r] = await db.query<{ c: unknown }>('select credit_micros as c from accounts where id = $1', [accountId]);
  return Number(r.c);
}

export async function billed(db: Queryable, accountId: string, runId: string): Promise<number> {
  const [r] = await db.query<{ b: unknown }>('select billed_micros as b from workflow_runs where account_id = $1 and id = $2', [
    accountId,
    runId,
  ]);
  return Number(r.b);
}

export async function billedTotal(db: Queryable, accountId: string): Promise<number> {
  const [r] = await db.query<{ s: unknown }>(
    'select coalesce(sum(billed_micros), 0)::bigint as s from workflow_runs where account_id = $1',
    [accountId],
  );
  return Number(r.s);
}

export interface LedgerEntry {
  micros: number;
  key_id: string | null;
  workflow_run_id: string | null;
  automation_run_id: string | null;
  feature: string;
  effect_key: string;
  day: string;
}

export async function ledger(db: Queryable, accountId: string): Promise<LedgerEntry[]> {
  const rows = await db.query<Record<string, unknown>>(
    `select micros, key_id, workflow_run_id, automation_run_id, feature, effect_key, to_char(day, 'YYYY-MM-DD') as day
       from billing_ledger where account_id = $1 order by id`,
    [accountId],
  );
  return rows.map((r) => ({ ...r, micros: Number(r.micros) }) as LedgerEntry);
}

/** The key's spend rows as [month, spent] (month as YYYY-MM-DD). */
export async function spendRows(db: Queryable, accountId: string, keyId: string): Promise<Array<[string, number]>> {
  const rows = await db.query<{ m: string; s: unknown }>(
    `select to_char(month, 'YYYY-MM-DD') as m, spent_micros as s from api_key_spend
      where account_id = $1 and key_id = $2 order by month`,
    [accountId, keyId],
  );
  return rows.map((r) => [r.m, Number(r.s)]);
}

/** The first day of the current UTC month, as the spend rows name it. */
export function utcMonth(d = new Date()): string {
  return `${d.toISOString().slice(0, 7)}-01`;
}
