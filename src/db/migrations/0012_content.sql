-- A project's items filtered by kind, most recently updated first (GET /projects/{id}/items?kind=…):
-- the kind sits between the project and the keyset order so the walk stays an index range.
create index content_items_project_kind on content_items (account_id, project_id, kind, updated_at desc, id desc);
