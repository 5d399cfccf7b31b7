-- Scheduled workflow runs: a workflow's optional cron (`schedule`, in `schedule_timezone`) and the
-- next time it fires. A ticker claims due rows with FOR UPDATE SKIP LOCKED, so with many
-- processes each occurrence starts exactly one run.
alter table workflows add column schedule_timezone text not null default 'UTC';
alter table workflows add column schedule_next_at timestamptz(3);
create index workflows_schedule_due on workflows (schedule_next_at) where schedule_next_at is not null;
