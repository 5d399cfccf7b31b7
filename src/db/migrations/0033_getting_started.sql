-- The hub's getting-started checklist (issue 25, item 8): a person may hide it, and it stays hidden
-- for them on every browser. A flag per user rather than per account: a new admin meets the
-- checklist even after the owner dismissed theirs. Additive; existing users see it until they
-- hide it or finish it.
alter table users add column getting_started_hidden boolean not null default false;
