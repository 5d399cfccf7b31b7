-- The per-process API-key cache (src/keys/auth-cache.ts, issue 14). Each process serving /v1 on a
-- shared store is a member: it may use its cache only while it holds a lease here, and it writes
-- in `acked` the last invalidation it has applied (cache cleared). A revoke or an account change
-- takes the next value of auth_invalidation_seq after its commit and waits until no member with a
-- live lease has acked less, so its answer holds on every process. Not an account's table: one
-- row per live process, like api_urls.
create table auth_cache_members (
  process_id uuid primary key,
  acked bigint not null,
  lease_until timestamptz not null
);
create sequence auth_invalidation_seq;

-- A change of what the pipeline reads that did not come through invalidateAuth (a row edited by
-- hand, a process of an earlier release during a rolling deploy) still reaches every member: the
-- NOTIFY is sent when its transaction commits, and a member clears its cache on any notification
-- that is not a numbered invalidation. Best effort (a member reconnecting misses it, so it clears
-- on reconnecting too), but a stale entry no longer waits for a restart. Statement-level, and only
-- for the columns the pipeline reads: billing's credit updates do not fire it.
create function auth_rows_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('sb_auth_invalidate', 'db');
  return null;
end
$$;
create trigger api_keys_auth_changed
  after update of revoked_at, expires_at, replaced_by, scopes, name, hash, account_id or delete on api_keys
  for each statement execute function auth_rows_changed();
create trigger accounts_auth_changed
  after update of state, subscription, api_open, tier, requests_per_minute or delete on accounts
  for each statement execute function auth_rows_changed();
