-- Backlog order (issue 27, part 1): a rank per item that needs no renumbering (src/lib/rank.ts: a
-- key between two neighbours), so a move writes one row. Additive: the previous release never
-- reads it. collate "C": ranks are ASCII digits compared byte by byte, as JavaScript compares them.
alter table wm_items add column rank text collate "C";

-- Items that exist already keep their key order: rank 'f' and the number in six base-62 digits
-- (an integer part of src/lib/rank.ts's form; an int4 number fits in six digits).
update wm_items set rank = 'f' || (
  select string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', ((number::bigint / power(62, p)::bigint) % 62)::int + 1, 1), '' order by p desc)
    from generate_series(0, 5) p
);

-- No two items of a project share a rank (moves take the project's row lock, so they never try),
-- and the hub's backlog reads a project's items in rank order from here.
create unique index wm_items_project_rank on wm_items (account_id, project_id, rank);
