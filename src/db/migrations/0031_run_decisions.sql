-- Runs in the hub (issue 25, item 6). An approval step keeps the decision made on it: who made
-- it and when (the wait for approval is measured from the step's start to this), the text the
-- approver edited the draft to (the run goes on with it; null = approved as it stood), and the
-- reason given for a rejection. A run started with "Run again" names the run it repeats.
alter table workflow_run_steps
  add column decided_by_user uuid,
  add column decided_at timestamptz(3),
  add column approved_text text,
  add column reject_reason text;
alter table workflow_runs add column rerun_of uuid;
create index workflow_runs_reruns on workflow_runs (account_id, rerun_of, created_at desc) where rerun_of is not null;
-- The hub's navigation counts the runs awaiting approval every 30 s on every open hub.
create index workflow_runs_awaiting on workflow_runs (account_id) where status = 'awaiting_approval';
