-- Work management written from the hub (issue 27, part 1). Additive: the previous release reads
-- this schema unchanged (it only ever sees items and history rows it already knew how to read).
--
-- An item deleted by an owner or admin keeps its row and history (soft delete): /v1 and the hub
-- then read it as unknown, its number is never given out again (the project's counter only moves
-- forward), and its history stays for the audit of who did what.
alter table wm_items add column deleted_at timestamptz(3);

-- A comment edited by its author keeps its place (seq, at) with the new text and when it was
-- edited; one deleted by its author keeps its row with the text cleared, so a seq is never given to
-- another comment (a stale edit of a deleted comment finds nothing instead of someone else's).
alter table wm_item_history
  add column edited_at timestamptz(3),
  add column deleted_at timestamptz(3);
