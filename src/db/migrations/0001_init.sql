-- Switchboard v1 data model. Timestamps are timestamptz(3): millisecond precision, exactly what
-- a JS Date and the API carry, so keyset cursors compare stored values exactly. Every tenant table is keyed by account_id first (primary keys and
-- indexes start with it, every query filters by it), so the schema can be distributed by account
-- (Citus: distribute by account_id; api_keys is the one lookup without an account and stays a
-- small reference table). Later migrations add columns; they do not rethink these tables.

create table accounts (
  id uuid primary key,
  name text not null,
  tier text not null default 'team' check (tier in ('solo', 'team', 'business', 'enterprise')),
  state text not null default 'active' check (state in ('active', 'suspended', 'closed')),
  subscription text not null default 'active' check (subscription in ('active', 'lapsed', 'ended')),
  credit_micros bigint not null default 0 check (credit_micros >= 0),
  api_open boolean not null default true,
  -- Limit overrides ("by contract" for enterprise); null = the tier's value.
  requests_per_minute integer check (requests_per_minute > 0),
  run_starts_per_minute integer check (run_starts_per_minute > 0),
  concurrent_runs integer check (concurrent_runs > 0),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);

create table users (
  account_id uuid not null references accounts (id),
  id uuid not null,
  email text not null,
  name text not null default '',
  role text not null check (role in ('owner', 'admin', 'member')),
  password_hash text,
  created_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  unique (id)
);
create unique index users_email on users (account_id, lower(email));

-- Reference table: the key lookup by hash is the one query without an account.
create table api_keys (
  id uuid primary key,
  account_id uuid not null references accounts (id),
  hash bytea not null unique,
  prefix text not null,
  name text not null,
  scopes text[] not null default '{}',
  expires_at timestamptz(3),
  monthly_spend_cap_micros bigint check (monthly_spend_cap_micros >= 1),
  revoked_at timestamptz(3),
  created_by uuid not null,
  created_at timestamptz(3) not null default now(),
  last_used_at timestamptz(3),
  foreign key (account_id, created_by) references users (account_id, id)
);
create index api_keys_account on api_keys (account_id, created_at, id);

-- What a key has spent in a UTC calendar month (billing keeps it equal to the ledger).
create table api_key_spend (
  account_id uuid not null,
  key_id uuid not null references api_keys (id),
  month date not null,
  spent_micros bigint not null default 0,
  primary key (account_id, key_id, month)
);

create table projects (
  account_id uuid not null references accounts (id),
  id uuid not null,
  name text not null,
  description text not null default '',
  settings jsonb not null default '{}',
  -- Work management: null prefix = the project never opened the area.
  wm_prefix text,
  wm_previous_prefixes text[] not null default '{}',
  wm_opened_at timestamptz(3),
  wm_next_number integer not null default 1,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  primary key (account_id, id)
);
create index projects_created on projects (account_id, created_at desc, id desc);

create table content_items (
  account_id uuid not null,
  id uuid not null,
  project_id uuid not null,
  kind text not null check (kind in ('page', 'file', 'dataset', 'image', 'link')),
  title text not null,
  -- Kind-specific fields: page text/html; file filename, content_type, size_bytes; dataset
  -- row_count, columns; image width, height, alt (+ file fields); link url.
  text text,
  html text,
  attrs jsonb not null default '{}',
  created_by_key uuid,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  foreign key (account_id, project_id) references projects (account_id, id)
);
create index content_items_project on content_items (account_id, project_id, updated_at desc, id desc);

create table workflows (
  account_id uuid not null references accounts (id),
  id uuid not null,
  project_id uuid,
  name text not null,
  description text not null default '',
  status text not null default 'draft' check (status in ('draft', 'active', 'paused')),
  blocks jsonb not null default '[]',
  edges jsonb not null default '[]',
  schedule text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  foreign key (account_id, project_id) references projects (account_id, id)
);
create index workflows_updated on workflows (account_id, updated_at desc, id desc);
create index workflows_status_updated on workflows (account_id, status, updated_at desc, id desc);
create index workflows_project_updated on workflows (account_id, project_id, updated_at desc, id desc);

-- Workflow runs are also the engine's queue (run_at, lease_*, attempt).
create table workflow_runs (
  account_id uuid not null,
  id uuid not null,
  workflow_id uuid not null,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'succeeded', 'failed', 'partial', 'awaiting_approval', 'rejected', 'cancelled')),
  trigger text not null check (trigger in ('api', 'manual', 'schedule', 'chat')),
  summary text not null default 'Queued',
  key_id uuid,
  started_by_user uuid,
  billed_micros bigint not null default 0,
  created_at timestamptz(3) not null default now(),
  started_at timestamptz(3),
  finished_at timestamptz(3),
  run_at timestamptz(3) not null default now(),
  lease_owner text,
  lease_expires_at timestamptz(3),
  attempt integer not null default 0,
  primary key (account_id, id),
  foreign key (account_id, workflow_id) references workflows (account_id, id)
);
create index workflow_runs_by_workflow on workflow_runs (account_id, workflow_id, created_at desc, id desc);
create index workflow_runs_claim on workflow_runs (run_at) where status in ('queued', 'running');
create index workflow_runs_api_active on workflow_runs (account_id, created_at)
  where trigger = 'api' and status in ('queued', 'running');
create index workflow_runs_api_recent on workflow_runs (account_id, created_at) where trigger = 'api';

create table workflow_run_steps (
  account_id uuid not null,
  run_id uuid not null,
  seq integer not null,
  node_id text not null,
  node_kind text not null,
  status text not null check (status in ('queued', 'running', 'succeeded', 'failed', 'skipped', 'awaiting')),
  started_at timestamptz(3),
  finished_at timestamptz(3),
  ms integer not null default 0,
  error text,
  output jsonb,
  effect_key text,
  primary key (account_id, run_id, seq),
  foreign key (account_id, run_id) references workflow_runs (account_id, id)
);

create table automations (
  account_id uuid not null,
  id uuid not null,
  project_id uuid not null,
  name text not null,
  status text not null default 'draft' check (status in ('draft', 'published', 'paused')),
  -- The draft: trigger {type, label, config}, steps, run_only_if, reenroll.
  trigger jsonb not null default '{"type": null, "label": ""}',
  steps jsonb not null default '[]',
  run_only_if jsonb,
  reenroll text not null default 'never' check (reenroll in ('never', 'always', 'after_exit')),
  published_version integer not null default 0,
  webhook_secret text,
  deleted_at timestamptz(3),
  last_run_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  foreign key (account_id, project_id) references projects (account_id, id)
);
create index automations_updated on automations (account_id, updated_at desc, id desc);

create table automation_versions (
  account_id uuid not null,
  automation_id uuid not null,
  version integer not null check (version >= 1),
  trigger jsonb not null,
  steps jsonb not null,
  run_only_if jsonb,
  published_at timestamptz(3) not null default now(),
  primary key (account_id, automation_id, version),
  foreign key (account_id, automation_id) references automations (account_id, id)
);

create table contacts (
  account_id uuid not null references accounts (id),
  id uuid not null,
  email text,
  email_normalized text,
  first_name text,
  last_name text,
  phone text,
  lifecycle_stage text check (lifecycle_stage in
    ('subscriber', 'lead', 'marketing_qualified', 'sales_qualified', 'opportunity', 'customer', 'evangelist', 'other')),
  do_not_contact boolean not null default false,
  email_opt_out boolean not null default false,
  sms_consent text not null default 'none' check (sms_consent in ('granted', 'none', 'revoked')),
  sms_stopped boolean not null default false,
  tags text[] not null default '{}',
  assignee uuid,
  archived_at timestamptz(3),
  -- Erased at the person's request: the row keeps only its id (runs name it); data is gone.
  erased_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  foreign key (account_id, assignee) references users (account_id, id)
);
create unique index contacts_email on contacts (account_id, email_normalized) where email_normalized is not null;
create index contacts_changed on contacts (account_id, updated_at desc, id desc);

-- Addresses of people erased at their request: only an HMAC of the normalised email.
create table erased_emails (
  account_id uuid not null references accounts (id),
  email_hmac text not null,
  erased_at timestamptz(3) not null default now(),
  primary key (account_id, email_hmac)
);

create table automation_runs (
  account_id uuid not null,
  id uuid not null,
  automation_id uuid not null,
  contact_id uuid,
  status text not null default 'running'
    check (status in ('running', 'waiting', 'succeeded', 'failed', 'stopped', 'skipped')),
  started_by text not null,
  key_id uuid,
  test boolean not null default false,
  version integer not null,
  current_step text,
  failed_step_id text,
  error text,
  next_at timestamptz(3),
  started_at timestamptz(3) not null default now(),
  finished_at timestamptz(3),
  run_at timestamptz(3) not null default now(),
  lease_owner text,
  lease_expires_at timestamptz(3),
  attempt integer not null default 0,
  primary key (account_id, id),
  foreign key (account_id, automation_id) references automations (account_id, id),
  foreign key (account_id, contact_id) references contacts (account_id, id)
);
create index automation_runs_by_automation on automation_runs (account_id, automation_id, started_at desc, id desc);
create index automation_runs_claim on automation_runs (run_at) where status in ('running', 'waiting');
-- One active run per (automation, contact): a concurrent double enrollment cannot slip in.
create unique index automation_runs_one_active on automation_runs (account_id, automation_id, contact_id)
  where status in ('running', 'waiting') and contact_id is not null and not test;
create index automation_runs_by_contact on automation_runs (account_id, contact_id, status);

create table automation_run_steps (
  account_id uuid not null,
  run_id uuid not null,
  seq integer not null,
  step_id text not null,
  name text not null,
  type text not null,
  status text not null check (status in ('ok', 'running', 'waiting', 'skipped', 'failed')),
  started_at timestamptz(3),
  finished_at timestamptz(3),
  ms integer not null default 0,
  error text,
  effect_key text,
  primary key (account_id, run_id, seq),
  foreign key (account_id, run_id) references automation_runs (account_id, id)
);

-- Work management.
create table wm_sprints (
  account_id uuid not null,
  id uuid not null,
  project_id uuid not null,
  name text not null,
  state text not null check (state in ('planned', 'active', 'finished')),
  start_date date,
  end_date date,
  review jsonb,
  created_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  foreign key (account_id, project_id) references projects (account_id, id)
);
create index wm_sprints_project on wm_sprints (account_id, project_id, created_at desc, id desc);

create table wm_items (
  account_id uuid not null,
  id uuid not null,
  project_id uuid not null,
  number integer not null,
  type text not null check (type in ('story', 'task', 'bug', 'epic')),
  title text not null,
  status text not null default 'todo' check (status in ('todo', 'in_progress', 'in_review', 'done')),
  sprint_id uuid,
  epic_number integer,
  labels text[] not null default '{}',
  assignee uuid,
  start_date date,
  due_date date,
  points integer,
  description text not null default '',
  linked_documents uuid[] not null default '{}',
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  primary key (account_id, id),
  unique (account_id, project_id, number),
  foreign key (account_id, project_id) references projects (account_id, id),
  foreign key (account_id, sprint_id) references wm_sprints (account_id, id),
  foreign key (account_id, assignee) references users (account_id, id)
);

create table wm_item_history (
  account_id uuid not null,
  item_id uuid not null,
  seq integer not null,
  at timestamptz(3) not null,
  actor uuid,
  kind text not null check (kind in ('comment', 'change')),
  text text,
  field text,
  from_value text,
  to_value text,
  primary key (account_id, item_id, seq),
  foreign key (account_id, item_id) references wm_items (account_id, id)
);

-- Billing: every billable event is a ledger row; counters on accounts/api_key_spend move with it.
create table billing_ledger (
  account_id uuid not null references accounts (id),
  id uuid not null,
  at timestamptz(3) not null default now(),
  day date not null,
  feature text not null,
  micros bigint not null,
  key_id uuid,
  workflow_run_id uuid,
  automation_run_id uuid,
  effect_key text,
  primary key (account_id, id)
);
create index billing_ledger_day on billing_ledger (account_id, day);
create unique index billing_ledger_effect on billing_ledger (account_id, effect_key) where effect_key is not null;

create table idempotency_keys (
  account_id uuid not null,
  key text not null,
  fingerprint text not null,
  status text not null check (status in ('in_progress', 'done')),
  locked_at timestamptz(3) not null default now(),
  response_status integer,
  response_body jsonb,
  response_headers jsonb,
  created_at timestamptz(3) not null default now(),
  expires_at timestamptz(3) not null,
  primary key (account_id, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);

-- Transactional outbox for email and SMS.
create table outbox (
  account_id uuid not null,
  id uuid not null,
  channel text not null check (channel in ('email', 'sms', 'team')),
  status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed', 'unknown')),
  to_address text not null,
  subject text,
  body text not null,
  message_id text not null,
  headers jsonb not null default '{}',
  automation_run_id uuid,
  step_id text,
  created_at timestamptz(3) not null default now(),
  sent_at timestamptz(3),
  error text,
  primary key (account_id, id)
);
create index outbox_pending on outbox (created_at) where status = 'queued';

-- Server-wide secrets (cursor signing). The newest is current; the one before stays valid.
create table server_secrets (
  purpose text not null,
  version integer not null,
  secret bytea not null,
  created_at timestamptz(3) not null default now(),
  primary key (purpose, version)
);

-- Shared fixed-window counters (rate limits when several processes share PostgreSQL without Redis).
create unlogged table rate_counters (
  key text primary key,
  window_start bigint not null,
  count integer not null
);
