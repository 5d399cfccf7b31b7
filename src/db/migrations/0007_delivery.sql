-- Delivery (docs/architecture.md §11, transactional outbox). Additive only.
-- claimed_at: when a sender took the row (status `sending`); a row still `sending` long after it
-- was claimed belongs to a sender that died mid-send and becomes `unknown` (never re-sent).
-- transport: which transport settled the row (`outbox` = stored only, development; `smtp`; `http`).
alter table outbox add column claimed_at timestamptz(3);
alter table outbox add column transport text;
create index outbox_sending on outbox (claimed_at) where status = 'sending';
-- A run's detail reads the messages of its steps.
create index outbox_by_step on outbox (account_id, automation_run_id, step_id) where automation_run_id is not null;

-- Any commit that adds outbox rows wakes the senders (whoever writes them: engine steps, operator
-- commands). Statement level and an empty payload: PostgreSQL folds identical notifications of
-- one transaction into one, so a batch of sends costs one wake-up.
create function switchboard_outbox_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('switchboard_outbox', '');
  return null;
end $$;

create trigger outbox_queued_notify after insert on outbox
  for each statement execute function switchboard_outbox_notify();

-- Inbound SMS (STOP/START) finds contacts by phone number, digits and a leading + only, across
-- accounts (accounts own no numbers yet to scope by).
create index contacts_phone_normalized on contacts ((regexp_replace(phone, '[^0-9+]', '', 'g'))) where phone is not null;
