// Usage, the hub's part: what each key of the account spent in a month against its cap. The
// month's sums by day and by feature are /v1's query (services/usage/read-store.ts), reused as is.
import type { Queryable } from '../../db/db.js';

export interface KeySpendRow {
  id: string;
  name: string;
  prefix: string;
  monthly_spend_cap_micros: unknown;
  spent_micros: unknown;
  revoked: boolean;
}

/**
 * Every key of the account that is not revoked, and every revoked key that spent in the month,
 * oldest first, with the month's spend (api_key_spend, which billing keeps equal to the ledger).
 * One walk of api_keys_account with a primary-key probe of api_key_spend per key (at most a few
 * dozen keys: ten active at most).
 */
export async function keySpend(db: Queryable, accountId: string, month: string): Promise<KeySpendRow[]> {
  return db.query<KeySpendRow>(
    `select k.id, k.name, k.prefix, k.monthly_spend_cap_micros, coalesce(s.spent_micros, 0) as spent_micros,
            k.revoked_at is not null as revoked
       from api_keys k
       left join api_key_spend s on s.account_id = k.account_id and s.key_id = k.id and s.month = $2::date
      where k.account_id = $1 and (k.revoked_at is null or coalesce(s.spent_micros, 0) > 0)
      order by k.created_at, k.id`,
    [accountId, `${month}-01`],
  );
}
