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
