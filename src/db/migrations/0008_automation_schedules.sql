-- Schedule-triggered automations: the next time the published version's cron fires.
alter table automations add column schedule_next_at timestamptz(3);
create index automations_schedule_due on automations (schedule_next_at) where status = 'published';
