-- Work management reads (GET /v1/workmgmt/...). Item lists walk the existing unique
-- (account_id, project_id, number) index in key order; these serve the filters and sprint totals.

-- Sprint totals (one aggregate per listed sprint) and the sprint_id filter, already in key order;
-- also spares a scan of wm_items when a sprint row is deleted (the foreign key has no index).
create index wm_items_sprint on wm_items (account_id, sprint_id, number) where sprint_id is not null;

-- changed_since: the items of a project changed after a moment, without reading the whole project.
create index wm_items_project_updated on wm_items (account_id, project_id, updated_at);

-- epic: an epic's children, already in key order.
create index wm_items_project_epic on wm_items (account_id, project_id, epic_number, number) where epic_number is not null;
