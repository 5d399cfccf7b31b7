-- The tables move out of `public` into their own schema, `switchboard`: a database shared with
-- other software keeps them apart, and `public` (not writable by ordinary roles since PostgreSQL
-- 15) is no longer needed. Every connection runs with search_path = switchboard (src/db/db.ts
-- SCHEMA), so the code names tables unqualified as before.
--
-- A store made before this migration has everything in public, the bookkeeping table
-- schema_migrations included; the migrator runs the scripts up to this one there, and this one
-- moves it all in the same transaction. ALTER … SET SCHEMA moves a table with its indexes,
-- constraints, triggers, row type and owned sequences; data, UNLOGGED-ness (rate_counters) and
-- grants stay. A store created at this version made everything in switchboard already: nothing
-- to move. The lists are every table and function migrations 0001-0020 create
-- (test/db/schema-move.test.ts compares them with a fresh store's).
create schema if not exists switchboard;

do $$
begin
  if to_regclass('public.schema_migrations') is null then
    return;
  end if;
  alter table public.schema_migrations set schema switchboard;
  alter table public.accounts set schema switchboard;
  alter table public.api_key_spend set schema switchboard;
  alter table public.api_keys set schema switchboard;
  alter table public.api_urls set schema switchboard;
  alter table public.automation_run_steps set schema switchboard;
  alter table public.automation_runs set schema switchboard;
  alter table public.automation_versions set schema switchboard;
  alter table public.automations set schema switchboard;
  alter table public.billing_ledger set schema switchboard;
  alter table public.contacts set schema switchboard;
  alter table public.content_items set schema switchboard;
  alter table public.erased_emails set schema switchboard;
  alter table public.idempotency_keys set schema switchboard;
  alter table public.outbox set schema switchboard;
  alter table public.projects set schema switchboard;
  alter table public.rate_counters set schema switchboard;
  alter table public.server_secrets set schema switchboard;
  alter table public.users set schema switchboard;
  alter table public.wm_item_history set schema switchboard;
  alter table public.wm_items set schema switchboard;
  alter table public.wm_sprints set schema switchboard;
  alter table public.workflow_run_steps set schema switchboard;
  alter table public.workflow_runs set schema switchboard;
  alter table public.workflows set schema switchboard;
  alter function public.switchboard_workflow_last_run() set schema switchboard;
  alter function public.switchboard_outbox_notify() set schema switchboard;
  alter function public.switchboard_search_prefixes(tsvector) set schema switchboard;
  alter function public.switchboard_contact_search(uuid, text, text, text) set schema switchboard;
  alter function public.switchboard_contact_query(uuid, text) set schema switchboard;
  alter function public.switchboard_prefix_query(uuid, text) set schema switchboard;
end $$;
