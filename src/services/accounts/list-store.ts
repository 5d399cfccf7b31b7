// Every account of the store, for the operator's `account list`. SQL.
import type { Queryable } from '../../db/db.js';
import type { AccountState, Tier } from '../../domain/account.js';

export interface AccountListRow {
  id: string;
  name: string;
  state: AccountState;
  tier: Tier;
  created_at: Date;
  users: number;
}

/** Oldest first; an operator store holds accounts by the hundreds at most, so no paging. */
export async function listAccounts(db: Queryable): Promise<AccountListRow[]> {
  return db.query<AccountListRow>(
    `select a.id, a.name, a.state, a.tier, a.created_at, (select count(*)::int from users u where u.account_id = a.id) as users
       from accounts a order by a.created_at, a.id`,
  );
}
