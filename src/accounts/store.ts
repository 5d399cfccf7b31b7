// Accounts: SQL for the operator commands (`switchboard account show|set`), the account-state
// reads of background work, and the closing sweep (src/accounts/activity.ts says what each state
// lets an account's work do). The request pipeline reads accounts through the key lookup in
// keys/store.ts, not through this module.
import type { Db, Queryable } from '../db/db.js';
import { accountsWithActiveRows } from '../db/fair-claim.js';
import { sqlList } from '../db/sql-list.js';
import { oneRow } from '../db/rows.js';
import type { AccountRow, AccountState, Role, Subscription, Tier } from '../domain/account.js';
import { ACTIVE_AUTOMATION_RUN_STATUSES, UNFINISHED_AUTOMATION_STEP_STATUSES } from '../domain/automation.js';
import { ACTIVE_RUN_STATUSES, NON_FINAL, UNFINISHED_RUN_STEP_STATUSES } from '../domain/workflow.js';
import {
  ACCOUNT_CLOSED_MESSAGE_ERROR,
  ACCOUNT_CLOSED_REASON,
  ACCOUNT_CLOSED_SUMMARY,
  accountActivity,
  accountClosedSql,
  type AccountActivity,
} from './activity.js';

// Status lists as SQL, built once (src/domain holds the lists).
const OPEN_RUNS = sqlList(NON_FINAL);
const OPEN_RUN_STEPS = sqlList(UNFINISHED_RUN_STEP_STATUSES);
const ACTIVE_RUNS = sqlList(ACTIVE_RUN_STATUSES);
const ACTIVE_AUTOMATION_RUNS = sqlList(ACTIVE_AUTOMATION_RUN_STATUSES);
const OPEN_AUTOMATION_STEPS = sqlList(UNFINISHED_AUTOMATION_STEP_STATUSES);

/** The fields an operator may change; a null override returns the account to its tier's limit. */
export interface AccountChanges {
  tier?: Tier;
  state?: AccountState;
  subscription?: Subscription;
  credit_micros?: number;
  api_open?: boolean;
  requests_per_minute?: number | null;
  run_starts_per_minute?: number | null;
  concurrent_runs?: number | null;
}

// Column names are spliced into SQL, so they come only from this fixed list, never from input.
const CHANGEABLE: readonly (keyof AccountChanges)[] = [
  'tier',
  'state',
  'subscription',
  'credit_micros',
  'api_open',
  'requests_per_minute',
  'run_starts_per_minute',
  'concurrent_runs',
];

const COLUMNS = `id, name, tier, state, subscription, credit_micros, api_open,
  requests_per_minute, run_starts_per_minute, concurrent_runs, created_at, updated_at`;

export async function getAccount(db: Queryable, accountId: string): Promise<AccountRow | null> {
  const rows = await db.query<AccountRow>(`select ${COLUMNS} from accounts where id = $1`, [accountId]);
  return rows[0] ? normalise(rows[0]) : null;
}

/** Applies the changes in one statement; null when there is no such account. */
export async function updateAccount(db: Queryable, accountId: string, changes: AccountChanges): Promise<AccountRow | null> {
  const sets: string[] = [];
  const params: unknown[] = [accountId];
  for (const col of CHANGEABLE) {
    if (changes[col] === undefined) continue;
    params.push(changes[col]);
    sets.push(`${col} = $${params.length}`);
  }
  if (!sets.length) return getAccount(db, accountId);
  const rows = await db.query<AccountRow>(
    `update accounts set ${sets.join(', ')}, updated_at = now() where id = $1 returning ${COLUMNS}`,
    params,
  );
  return rows[0] ? normalise(rows[0]) : null;
}

export interface AccountStateRow {
  state: AccountState;
  subscription: Subscription;
}

/** The account's state and subscription as committed now; null when there is no such account. */
export async function readAccountState(db: Queryable, accountId: string): Promise<AccountStateRow | null> {
  const rows = await db.query<AccountStateRow>(`select state, subscription from accounts where id = $1`, [accountId]);
  return rows[0] ?? null;
}

/**
 * The state read under a share lock, inside a transaction that acts for the account (a webhook):
 * a state change waits for that transaction, and so cannot slip in between this check and its
 * writes.
 */
export async function lockAccountState(tx: Queryable, accountId: string): Promise<AccountStateRow | null> {
  const rows = await tx.query<AccountStateRow>(`select state, subscription from accounts where id = $1 for share`, [accountId]);
  return rows[0] ?? null;
}

/** What the account's state lets its background work do now (an account that is gone: closed). */
export async function readAccountActivity(db: Queryable, accountId: string): Promise<AccountActivity> {
  const a = await readAccountState(db, accountId);
  return a ? accountActivity(a.state, a.subscription) : 'closed';
}

export interface EndedWork {
  workflowRuns: number;
  automationRuns: number;
  messages: number;
}

/**
 * The closing sweep for one account: its non-final workflow runs end `cancelled` (summary
 * "Cancelled: account closed"; an open step fails with "Account closed"), its active automation
 * runs end `stopped` (error "Account closed"; an open step is skipped with it), and its queued
 * messages end `failed` ("account closed"). A worker holding one of these runs finds its fence
 * gone at its next write and stops. Call inside a transaction; it does not look at the state.
 */
export async function endAccountWork(tx: Queryable, accountId: string): Promise<EndedWork> {
  const w = oneRow(await tx.query<{ n: number }>(
    `with ended as (
       update workflow_runs
          set status = 'cancelled', summary = $2, finished_at = now(), awaiting_since = null,
              lease_owner = null, lease_expires_at = null
        where account_id = $1 and status in (${OPEN_RUNS})
        returning id
     ), steps as (
       update workflow_run_steps s
          set status = 'failed', error = $3, finished_at = now(),
              ms = case when s.started_at is null then s.ms
                        else greatest(s.ms, (extract(epoch from now() - s.started_at) * 1000)::int) end
         from ended e
        where s.account_id = $1 and s.run_id = e.id and s.status in (${OPEN_RUN_STEPS})
        returning 1
     )
     select (select count(*) from ended)::int as n`,
    [accountId, ACCOUNT_CLOSED_SUMMARY, ACCOUNT_CLOSED_REASON],
  ), 'closed workflow runs count');
  const a = oneRow(await tx.query<{ n: number }>(
    `with ended as (
       update automation_runs
          set status = 'stopped', error = $2, finished_at = now(), next_at = null,
              lease_owner = null, lease_expires_at = null
        where account_id = $1 and status in (${ACTIVE_AUTOMATION_RUNS})
        returning id
     ), steps as (
       update automation_run_steps s
          set status = 'skipped', error = $2, finished_at = now(),
              ms = greatest(0, (extract(epoch from now() - coalesce(s.started_at, now())) * 1000)::int)
         from ended e
        where s.account_id = $1 and s.run_id = e.id and s.status in (${OPEN_AUTOMATION_STEPS})
        returning 1
     )
     select (select count(*) from ended)::int as n`,
    [accountId, ACCOUNT_CLOSED_REASON],
  ), 'closed automation runs count');
  const m = await tx.query(`update outbox set status = 'failed', error = $2 where account_id = $1 and status = 'queued' returning 1`, [
    accountId,
    ACCOUNT_CLOSED_MESSAGE_ERROR,
  ]);
  return { workflowRuns: Number(w.n), automationRuns: Number(a.n), messages: m.length };
}

/**
 * The engine's sweep: closed accounts that still have queued or running work (the state set
 * directly in the database, by another process, or a run started while the account closed). It
 * finds them the way the claim finds accounts (one index probe per account with active runs), so
 * it costs about what an empty claim does.
 */
export async function closedAccountsWithWork(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `with recursive wa as (
       ${accountsWithActiveRows('workflow_runs', `(${ACTIVE_RUNS})`, 'wa')}
     ), aa as (
       ${accountsWithActiveRows('automation_runs', `(${ACTIVE_AUTOMATION_RUNS})`, 'aa')}
     )
     select ac.id from accounts ac
      where ${accountClosedSql('ac')}
        and ac.id in (select account_id from wa where account_id is not null
                      union select account_id from aa where account_id is not null)`,
  );
  return rows.map((r) => r.id);
}

/**
 * Ends a closed account's work (the closing sweep) if the account is closed as committed now;
 * null when it is not closed. One transaction; for the engine, which finds such work by itself.
 */
export async function endClosedAccountWork(db: Db, accountId: string): Promise<EndedWork | null> {
  return db.transaction(async (tx) => {
    const a = await readAccountState(tx, accountId);
    if (a && a.state !== 'closed') return null;
    return endAccountWork(tx, accountId);
  });
}

// bigint columns come back as numbers from both adapters, but a string would slip through JSON
// output silently, so make the type certain here.
function normalise(row: AccountRow): AccountRow {
  return { ...row, credit_micros: Number(row.credit_micros) };
}

/** A new account with the tier's defaults (state active, subscription active) and its starting credit. */
export async function insertNewAccount(tx: Queryable, id: string, name: string, tier: Tier, creditMicros: number): Promise<void> {
  await tx.query(`insert into accounts (id, name, tier, credit_micros) values ($1, $2, $3, $4)`, [id, name, tier, creditMicros]);
}

export async function insertUser(
  tx: Queryable,
  u: { accountId: string; id: string; email: string; name: string; role: Role; passwordHash: string | null },
): Promise<void> {
  await tx.query(
    `insert into users (account_id, id, email, name, role, password_hash) values ($1, $2, $3, $4, $5, $6)`,
    [u.accountId, u.id, u.email, u.name, u.role, u.passwordHash],
  );
}

/** Whether the store holds any account at all (the hub's first-run set-up is open until it does). */
export async function anyAccount(db: Queryable): Promise<boolean> {
  const rows = await db.query(`select 1 from accounts limit 1`);
  return rows.length > 0;
}
