// The URLs API processes record at start (table api_urls), read by processes that have no
// SWITCHBOARD_PUBLIC_URL to build links into messages.
import type { Queryable } from '../db/db.js';

/**
 * Records an API process's URL; the newest recorded is the one links use. Its time is strictly
 * after every row's: two records within one clock tick (PGlite's clock is coarse) still order
 * as they were made.
 */
export async function recordApiUrl(db: Queryable, processId: string, url: string): Promise<void> {
  await db.query(
    `insert into api_urls (process_id, url, recorded_at)
     values ($1, $2, greatest(clock_timestamp(), (select max(recorded_at) + interval '1 microsecond' from api_urls)))
     on conflict (process_id) do update set url = excluded.url, recorded_at = excluded.recorded_at`,
    [processId, url],
  );
}

/** Removes a process's row at clean shutdown, so links go to an API process still running. */
export async function forgetApiUrl(db: Queryable, processId: string): Promise<void> {
  await db.query('delete from api_urls where process_id = $1', [processId]);
}

/** The most recently recorded API URL, or null when no API process has recorded one. */
export async function latestApiUrl(db: Queryable): Promise<string | null> {
  const rows = await db.query<{ url: string }>('select url from api_urls order by recorded_at desc, process_id desc limit 1');
  return rows[0]?.url ?? null;
}
