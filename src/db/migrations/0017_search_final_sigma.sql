-- "Any case" search folds the Greek final sigma as the ordinary one: lower('ΝΙΚΟΣ') is 'νικοσ',
-- while the same word typed in lower case is 'νικος'. Both the stored words and the query words
-- are folded alike. The search column is generated from the function, so it is dropped (with its
-- index) and added again: every row's words are computed anew.
drop index contacts_search;
alter table contacts drop column search;

create or replace function switchboard_contact_search(account_id uuid, first_name text, last_name text, email text) returns tsvector
  language sql immutable parallel safe
  as $$ select array_to_tsvector(array(
         select account_id::text || '/' || w
           from unnest(regexp_split_to_array(translate(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '')), 'ς', 'σ'),
                                             '[[:space:][:punct:]]+')) w
          where w <> '')) $$;

create or replace function switchboard_contact_query(account_id uuid, q text) returns tsquery
  language sql immutable parallel safe
  as $$ select nullif(array_to_string(array(
         select '''' || account_id::text || '/' || w || ''':*'
           from unnest(regexp_split_to_array(translate(lower(coalesce(q, '')), 'ς', 'σ'), '[[:space:][:punct:]]+')) w
          where w <> ''), ' & '), '')::tsquery $$;

create or replace function switchboard_prefix_query(account_id uuid, q text) returns tsquery
  language sql immutable parallel safe
  as $$ select nullif(array_to_string(array(
         select '''' || account_id::text || '/' || left(w, 32) || ''''
           from unnest(regexp_split_to_array(translate(lower(coalesce(q, '')), 'ς', 'σ'), '[[:space:][:punct:]]+')) w
          where w <> ''), ' & '), '')::tsquery $$;

alter table contacts add column search tsvector
  generated always as (switchboard_contact_search(account_id, first_name, last_name, email)) stored;
create index contacts_search on contacts using gin (switchboard_search_prefixes(search)) with (fastupdate = off);
