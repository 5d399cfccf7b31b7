-- Contacts API lists (GET /v1/contacts). Additive: functions, one generated column, two indexes.
-- The unfiltered list and changed_since walk contacts_changed (0001); email uses the unique
-- contacts_email.
--
-- `q` search without extensions (PGlite has none). A contact's words are its first name, last
-- name and email split on blanks and punctuation, lower-cased. Every word of q must begin one of
-- them. Lexemes carry the account id ("<account id>/<word>") because GIN cannot lead with
-- account_id (btree_gin is an extension): a search reads only its own account's keys.
-- The splitting expression is written out in each function: index builds run with
-- search_path = pg_catalog (PostgreSQL 17+), so one function may not call another unqualified.

-- The words, stored (contacts.search): every writer (API, fixtures, webhooks) fills it without
-- knowing it exists, and checking a row against q costs a comparison, not a regexp split.
create function switchboard_contact_search(account_id uuid, first_name text, last_name text, email text) returns tsvector
  language sql immutable parallel safe
  as $$ select array_to_tsvector(array(
         select account_id::text || '/' || w
           from unnest(regexp_split_to_array(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '')),
                                             '[[:space:][:punct:]]+')) w
          where w <> '')) $$;

-- q as "every word is the prefix of a word" ('w':* & …); null when q has no word. Words hold no
-- quote or backslash (both are punctuation, split away), so quoting each lexeme is enough.
create function switchboard_contact_query(account_id uuid, q text) returns tsquery
  language sql immutable parallel safe
  as $$ select nullif(array_to_string(array(
         select '''' || account_id::text || '/' || w || ''':*'
           from unnest(regexp_split_to_array(lower(coalesce(q, '')), '[[:space:][:punct:]]+')) w
          where w <> ''), ' & '), '')::tsquery $$;

-- What the index holds: every prefix (up to 32 characters) of every word, so a query word is one
-- exact key. A prefix query ('w':*) would make GIN read the whole posting list of every key that
-- starts with w, common ones included ("example" in an address: 100k entries at 100k contacts);
-- exact keys let it skip through common lists guided by the rarest one (8 ms → 1 ms, bench:contacts).
create function switchboard_search_prefixes(search tsvector) returns tsvector
  language sql immutable parallel safe
  as $$ select array_to_tsvector(array(
         select split_part(l, '/', 1) || '/' || left(split_part(l, '/', 2), n)
           from unnest(tsvector_to_array(search)) l, generate_series(1, least(length(split_part(l, '/', 2)), 32)) n)) $$;

-- The index side of q: each word (its first 32 characters) as an exact key. The list query also
-- applies switchboard_contact_query, which checks longer words in full.
create function switchboard_prefix_query(account_id uuid, q text) returns tsquery
  language sql immutable parallel safe
  as $$ select nullif(array_to_string(array(
         select '''' || account_id::text || '/' || left(w, 32) || ''''
           from unnest(regexp_split_to_array(lower(coalesce(q, '')), '[[:space:][:punct:]]+')) w
          where w <> ''), ' & '), '')::tsquery $$;

alter table contacts add column search tsvector
  generated always as (switchboard_contact_search(account_id, first_name, last_name, email)) stored;
-- fastupdate off: PGlite never runs autovacuum, which is what empties GIN's pending list; every
-- search would otherwise scan up to 4 MB of unsorted pending entries (3.9 ms → 1.3 ms measured).
create index contacts_search on contacts using gin (switchboard_search_prefixes(search)) with (fastupdate = off);

-- Not partial (live contacts only) on purpose: without planner statistics (PGlite never runs
-- autovacuum) a partial index built on an empty table looks free and was picked for lists it
-- does not order, e.g. 28 ms instead of 0.1 ms for an email lookup at 100k contacts.
create index contacts_stage_changed on contacts (account_id, lifecycle_stage, updated_at desc, id desc);
