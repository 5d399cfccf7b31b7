-- Runs that throw are retried with backoff, and given up on after SWITCHBOARD_RUN_MAX_ATTEMPTS
-- (issue 23: a run that failed the same way forever was released for an immediate retry, with no
-- cap). `failures` counts the executions that threw since the run last parked (an automation wait,
-- an approval): `attempt` counts every claim, resumes after a wait included, so it cannot say how
-- often the run failed. Runs looping on an older release start from 0 and end within the cap.
alter table workflow_runs add column failures integer not null default 0;
alter table automation_runs add column failures integer not null default 0;
