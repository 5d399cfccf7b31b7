-- Where the API processes listen. A process without SWITCHBOARD_PUBLIC_URL (a development worker)
-- builds its unsubscribe links from the URL the most recently started API process recorded here
-- (the port it really bound, https when it serves TLS), not from its own HOST and PORT. One row
-- per API process; a process removes its own row when it stops cleanly.
create table api_urls (
  process_id uuid primary key,
  url text not null,
  recorded_at timestamptz not null default now()
);
