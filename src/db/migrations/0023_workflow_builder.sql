-- The hub's workflow builder (issue 13). A run keeps the definition it started with: its blocks
-- and edges are copied from the workflow when it is queued, so an edit saved while it is in
-- flight never changes what it executes (runs queued before this migration have none and read
-- the workflow's, as before). A workflow can be deleted in the hub: the row stays, marked, so its
-- runs stay readable and a run in flight finishes; every read of live workflows skips it.
alter table workflow_runs add column blocks jsonb, add column edges jsonb;
alter table workflows add column deleted_at timestamptz(3);
