// Usage: SQL over billing_ledger (rows are written by src/engine/billing in micros, with the UTC
// `day` of the charge) and the balance on accounts. Read-only.
// Its home is services/, below api/, hub/ and cli/: /v1 and the hub read the same rows through it.
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';

/** The balance and the current UTC date, both from the database: the clock billing dates ledger rows with. */
export async function balanceAndToday(db: Queryable, accountId: string): Promise<{ balance: number; today: string }> {
  const rows = await db.query<{ balance: unknown; today: string }>(
    `select credit_micros as balance, to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD') as today
       from accounts where id = $1`,
    [accountId],
  );
  // The key that authenticated this request belongs to the account, so the row is there.
  const row = oneRow(rows, 'the authenticated account');
  return { balance: Number(row.balance), today: row.today };
}

export interface UsageSums {
  total: number;
  byDay: Map<string, number>;
  byFeature: Array<{ feature: string; micros: number }>;
}

/**
 * Sums of the ledger between two UTC dates, both included: per day, per feature and in all, in
 * one pass over the billing_ledger_day index (grouping sets). Features come biggest first, then
 * by name.
 */
export async function usageSums(db: Queryable, accountId: string, from: string, to: string): Promise<UsageSums> {
  const rows = await db.query<{ day: string | null; feature: string | null; micros: unknown; by: number }>(
    `select to_char(day, 'YYYY-MM-DD') as day, feature, sum(micros)::bigint as micros,
            grouping(day, feature) as by
       from billing_ledger
      where account_id = $1 and day between $2::date and $3::date
      group by grouping sets ((day), (feature), ())`,
    [accountId, from, to],
  );
  const out: UsageSums = { total: 0, byDay: new Map(), byFeature: [] };
  // grouping(day, feature): 1 = grouped by day, 2 = by feature, 3 = the grand total.
  for (const r of rows) {
    const micros = Number(r.micros ?? 0);
    if (r.by === 1) out.byDay.set(r.day!, micros);
    else if (r.by === 2) out.byFeature.push({ feature: r.feature!, micros });
    else out.total = micros;
  }
  out.byFeature.sort((a, b) => b.micros - a.micros || (a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0));
  return out;
}
