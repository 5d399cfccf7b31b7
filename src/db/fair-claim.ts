// The fair claim shared by the engine's queues (workflow_runs, automation_runs): the CTEs that
// pick up to $3 ready rows round-robin across accounts and lock them once. Each queue's store
// follows it with its own UPDATE … FROM picked.
//
// - `accts` lists the accounts with active rows by a loose index scan (one index probe per
//   account, not one row per queued run).
// - `ranked` takes only accounts whose work may proceed (spec.accountMayWork): a suspended,
//   lapsed or closed account's rows never become candidates, so they take no claim slot and
//   cannot crowd out another account's work; they stay where they are until the account is
//   active again (a closed account's are ended by the closing sweep, src/accounts/store.ts).
// - `ranked` takes each account's oldest ready rows (at most $3 each) without locking; every
//   account's oldest is in round 1, so one account's 60,000 queued runs cost another one round.
// - `candidates` keeps the first rounds, with room to spare for rows a concurrent claimer locks
//   first (a claim that comes up short is simply followed by another).
// - `picked` looks the candidates up by primary key (the `= any (array(...))` conditions steer the
//   planner to the index) and locks them in round order with SKIP LOCKED, re-checking readiness.
//   It is MATERIALIZED: as a subquery joined into the UPDATE the planner may rescan it (a nested
//   loop), and every rescan locks other rows (an outbox claim of 4 once took 38 that way).

export interface FairClaimSpec {
  table: 'workflow_runs' | 'automation_runs';
  /** Statuses that can have ready rows, as an SQL list: `('queued', 'running')`. */
  active: string;
  /** The ready condition over alias `w`. */
  ready: string;
  /**
   * The condition over the account's row (alias `ac`) for its rows to be claimed at all: the
   * account-state rule, accountMayWorkSql('ac') from src/accounts/activity.ts.
   */
  accountMayWork: string;
  /** Extra columns `picked` carries to the UPDATE, e.g. `, w.status as previous_status`. */
  extra?: string;
}

/**
 * A recursive CTE body listing the accounts that have rows in `active` statuses (and one null row
 * at the end), one index probe per account; use it under `with recursive NAME as (…)`.
 */
export function accountsWithActiveRows(table: FairClaimSpec['table'], active: string, name: string): string {
  return `(select account_id from ${table} where status in ${active} order by account_id limit 1)
       union all
       select (select w.account_id from ${table} w
                where w.status in ${active} and w.account_id > a.account_id
                order by w.account_id limit 1)
         from ${name} a where a.account_id is not null`;
}

/** `with recursive … picked as materialized (…)`; parameters: $3 = how many to claim. */
export function fairPick(s: FairClaimSpec): string {
  return `with recursive accts as (
       ${accountsWithActiveRows(s.table, s.active, 'accts')}
     ),
     ranked as (
       select c.account_id, c.id, c.run_at,
              row_number() over (partition by c.account_id order by c.run_at, c.id) as round
         from accts a
         join accounts ac on ac.id = a.account_id and ${s.accountMayWork}
         cross join lateral (
           select w.account_id, w.id, w.run_at from ${s.table} w
            where w.account_id = a.account_id and ${s.ready}
            order by w.run_at, w.id limit $3
         ) c
        where a.account_id is not null
     ),
     candidates as (
       select * from ranked order by round, run_at, id limit $3 * 2 + 8
     ),
     picked as materialized (
       select w.account_id, w.id${s.extra ?? ''}
         from ${s.table} w join candidates c on c.account_id = w.account_id and c.id = w.id
        where w.account_id = any (array(select account_id from candidates))
          and w.id = any (array(select id from candidates))
          and ${s.ready}
        order by c.round, c.run_at, c.id
        limit $3
        for no key update of w skip locked
     )`;
}
