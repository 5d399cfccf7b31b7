// How much of a queue is ready now and how long its oldest ready item has waited: one statement
// per queue, read when metrics are scraped. Each queue's store gives its own "ready" condition
// (the one its claim uses), over the table aliased `w` and its account aliased `ac`, so what is
// counted is exactly what a claim could take (a held account's work is not).
import type { Queryable } from './db.js';

export interface Readiness {
  depth: number;
  oldestSeconds: number;
}

export async function queueReadiness(db: Queryable, table: string, ready: string, accountMayWork: string): Promise<Readiness> {
  const rows = await db.query<{ depth: number; oldest: number | null }>(
    `select count(*)::int as depth, extract(epoch from now() - min(w.run_at))::float8 as oldest
       from ${table} w join accounts ac on ac.id = w.account_id and ${accountMayWork}
      where ${ready}`,
  );
  return { depth: rows[0]?.depth ?? 0, oldestSeconds: Math.max(0, rows[0]?.oldest ?? 0) };
}
