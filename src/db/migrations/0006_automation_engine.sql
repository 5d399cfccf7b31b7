-- Automation engine (docs/architecture.md §9.2): the fair claim over automation runs, step outputs,
-- the tester's address for test runs, and a count of crash-style reclaims (a run that keeps killing
-- its workers is failed instead of retried forever; normal resumes after a wait do not count).

-- The claim walks accounts in order (a loose index scan) and takes each account's oldest ready
-- runs: the non-final rows by account, then run_at.
create index automation_runs_claim_by_account on automation_runs (account_id, run_at)
  where status in ('running', 'waiting');

-- What a step produced for later steps: an ai.write text, the branch a branch step took.
alter table automation_run_steps add column output jsonb;

-- A test run sends only to the person testing; their address is fixed when the test starts.
alter table automation_runs add column tester_email text;

alter table automation_runs add column reclaims integer not null default 0;
