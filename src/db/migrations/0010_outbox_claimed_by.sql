-- Which sender holds a `sending` row: a sender never calls its own sends in progress unknown; only
-- rows of senders that stopped (or of other senders, past the stuck time) are.
alter table outbox add column claimed_by text;
