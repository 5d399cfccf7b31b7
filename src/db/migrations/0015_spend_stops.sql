-- "A run that reaches [the key's monthly cap] is stopped and further starts give 402": a run is
-- stopped when what is left cannot pay for its next call, usually before spend equals the cap.
-- The stop is remembered as the limit in force when it happened; raising the cap above it (or a
-- new month: a new row) lifts it, lowering it does not.
alter table api_key_spend add column cap_stop_micros bigint;

-- The same for the account's credit: the balance a run was stopped at. Credit added on top lifts
-- it; further spending only moves the balance further below it.
alter table accounts add column credit_stop_micros bigint;
