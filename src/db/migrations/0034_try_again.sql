-- Try again (issue 26, part 8). Additive: the previous release runs on this schema unchanged.
--
-- A workflow run started with "Run again" (hub) or `runs retry` (CLI) names the run it retries:
-- retry_of, the run a person chose (a retry of a retry names the retry). It runs that run's own
-- blocks and edges, copied from its snapshot (0023). 0031's rerun_of held the same link for the
-- earlier "Run again"; its links are copied here, and from this release on only retry_of is
-- written and read (the old column stays: migrations never drop what a previous release reads).
alter table workflow_runs
  add column retry_of uuid,
  add foreign key (account_id, retry_of) references workflow_runs (account_id, id);
update workflow_runs set retry_of = rerun_of where rerun_of is not null;
-- The original's page names its newest retry.
create index workflow_runs_retries on workflow_runs (account_id, retry_of, created_at desc) where retry_of is not null;

-- A failed message (an unknown one only when forced) re-sent by a person is a new outbox row
-- naming the row it re-sends, never the old row put back in the queue: the old row keeps what
-- happened to it, and each row is still delivered at most once (src/services/messages/service.ts
-- says why). At most one re-send per message: two people re-sending at once make one row.
alter table outbox add column resend_of uuid;
create unique index outbox_resends on outbox (account_id, resend_of) where resend_of is not null;
