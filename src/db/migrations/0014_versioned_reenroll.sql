-- Re-enrollment is part of what is published: a draft-only change of it neither takes effect
-- before publication nor goes unreported (has_unpublished_changes). Each version keeps its own.
alter table automation_versions
  add column reenroll text not null default 'never' check (reenroll in ('never', 'always', 'after_exit'));

-- Versions published before this migration ran with the automation's one setting: keep it.
update automation_versions v
   set reenroll = a.reenroll
  from automations a
 where a.account_id = v.account_id and a.id = v.automation_id;
