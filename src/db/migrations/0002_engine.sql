-- Engine (docs/architecture.md §9.2): indexes for the fair claim, one step row per block, and the
-- time a run spent waiting for a person (the run time limit counts the run's own work, not the
-- human's wait).

-- The claim walks accounts in order (a loose index scan) and takes each account's oldest ready
-- runs, so it needs the non-final queue rows by account, then run_at.
create index workflow_runs_claim_by_account on workflow_runs (account_id, run_at)
  where status in ('queued', 'running');

-- A block runs at most once per run: a resumed run reuses the block's step row, never adds one.
create unique index workflow_run_steps_node on workflow_run_steps (account_id, run_id, node_id);

alter table workflow_runs add column awaiting_since timestamptz(3);
alter table workflow_runs add column paused_ms bigint not null default 0;
