// The shared rate-limit count on PostgreSQL: one atomic upsert per batch of hits on the UNLOGGED
// rate_counters table (migration 0001).
import type { Queryable } from '../db/db.js';
import { oneRow } from '../db/rows.js';

/**
 * Counts n hits of `key` in the window starting at `windowStart` and returns the window's count
 * after them (HitBatcher sends concurrent hits of one key as one statement). A hit whose window
 * was worked out just before a minute boundary (or on a host whose clock is a little behind) can
 * arrive after the new window started: it counts in the newer window, never sets the row back to
 * the older one (which would restart the new window's count).
 */
export async function countHits(db: Queryable, key: string, n: number, windowStart: number): Promise<number> {
  const rows = await db.query<{ count: number }>(
    `insert into rate_counters (key, window_start, count) values ($1, $2, $3)
       on conflict (key) do update set
         count = case when rate_counters.window_start >= excluded.window_start then rate_counters.count + excluded.count else excluded.count end,
         window_start = greatest(rate_counters.window_start, excluded.window_start)
       returning count`,
    [key, windowStart, n],
  );
  return oneRow(rows, 'the upserted counter').count;
}

/** The count of `key` in the window starting at `windowStart` (0 when its row is of an older window or absent). */
export async function readHits(db: Queryable, key: string, windowStart: number): Promise<number> {
  const rows = await db.query<{ count: number }>(`select count from rate_counters where key = $1 and window_start >= $2`, [key, windowStart]);
  return rows[0]?.count ?? 0;
}
