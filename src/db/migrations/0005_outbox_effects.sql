-- Outbox rows carry the effect key of the step that wrote them, so a step resumed after a crash
-- finds its message instead of writing (and sending) a second one.
alter table outbox add column effect_key text;
create unique index outbox_effect on outbox (account_id, effect_key) where effect_key is not null;
alter table outbox add column attempts integer not null default 0;
