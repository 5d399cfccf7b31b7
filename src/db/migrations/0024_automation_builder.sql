-- The automation builder (issue 13): who published each version. published_by is the label the
-- versions list shows (the person's name or email, "operator" for the CLI); published_by_user the
-- hub user, when one did it. Versions published before (and a fixture's version 1) say null.
alter table automation_versions add column published_by text;
alter table automation_versions add column published_by_user uuid;
