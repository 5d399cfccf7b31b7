-- A contact's timeline on its page (issue 25, item 4) reads the audit entries of one object (the
-- contact's creation, edits, erasure) newest first: by object, not by the account's whole log.
create index audit_log_by_object on audit_log (account_id, object_id, at desc, id desc);
