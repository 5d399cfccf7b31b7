-- The hub (web console): sessions, one-time links, the audit log, and rolled keys.

-- A signed-in browser. Only a hash of the cookie's token is stored. A session starts with the
-- users (one per account) whose password matched at sign-in; account_id/user_id are the one
-- picked. Idle expiry is checked against last_seen_at, absolute expiry against created_at.
create table hub_sessions (
  token_hash bytea primary key,
  email text not null,
  user_ids uuid[] not null,
  account_id uuid references accounts (id),
  user_id uuid,
  csrf_token text not null,
  created_at timestamptz(3) not null default now(),
  last_seen_at timestamptz(3) not null default now()
);
create index hub_sessions_user on hub_sessions using gin (user_ids);

-- One-time links: set a password (a new owner from `account create`, an invited user).
create table user_tokens (
  token_hash bytea primary key,
  account_id uuid not null,
  user_id uuid not null,
  purpose text not null check (purpose in ('set_password')),
  expires_at timestamptz(3) not null,
  used_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  foreign key (account_id, user_id) references users (account_id, id) on delete cascade
);

-- Who did what: every hub and operator action that changes something, written in the same
-- transaction as the change. actor_id is the user (null for the operator CLI).
create table audit_log (
  account_id uuid not null references accounts (id),
  id uuid not null,
  at timestamptz(3) not null default now(),
  actor_kind text not null check (actor_kind in ('user', 'operator')),
  actor_id uuid,
  actor_label text not null,
  action text not null,
  object_kind text not null,
  object_id text not null,
  detail jsonb not null default '{}',
  primary key (account_id, id)
);
create index audit_log_at on audit_log (account_id, at desc, id desc);

-- A rolled key names the key that replaced it (its expiry is then the end of the grace period).
alter table api_keys add column replaced_by uuid references api_keys (id);

-- The hub's screens read an account's newest runs and messages (Runs, Messages, a contact's
-- messages) in keyset order: one index each so a page stays an index scan at any size.
create index workflow_runs_by_account on workflow_runs (account_id, created_at desc, id desc);
create index outbox_by_time on outbox (account_id, created_at desc, id desc);
