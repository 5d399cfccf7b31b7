-- Deliveries that tell the truth and survive a bad minute (issue 10). Additive only.
-- run_at: when a queued row may be claimed (now, or the next attempt after a refusal that may
-- pass); the claim takes due rows, earliest first. Existing rows are due at once.
alter table outbox add column run_at timestamptz(3) not null default now();
-- first_attempt_at: when the first attempt was made; retries stop once the retry window from here is spent.
alter table outbox add column first_attempt_at timestamptz(3);
-- attempt_log: one entry per attempt, {at, outcome, reason}; the reason never names an address.
alter table outbox add column attempt_log jsonb not null default '[]';
drop index outbox_pending;
create index outbox_due on outbox (run_at) where status = 'queued';

-- A send step whose message was not delivered (or whose outcome is unknown) says so: the step
-- becomes `failed` or `unknown`.
alter table automation_run_steps drop constraint automation_run_steps_status_check;
alter table automation_run_steps add constraint automation_run_steps_status_check
  check (status in ('ok', 'running', 'waiting', 'skipped', 'failed', 'unknown'));
