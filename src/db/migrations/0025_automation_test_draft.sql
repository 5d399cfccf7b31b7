-- A builder's test run of the draft (issue 13): the draft's trigger and steps as they were when
-- the test started, {"trigger": {...}, "steps": [...]}. The executor runs these instead of the
-- pinned version's when present, in the same one read per claim. Only test runs ever set it; a
-- later edit of the draft does not change a test already running (as a version does not).
alter table automation_runs add column definition jsonb;
