// The getting-started facts in one query: does the account have each first thing (live rows only:
// a deleted workflow or an archived contact is not "your first"), and has this person hidden the
// checklist. Each fact is an EXISTS, so the cost does not grow with the account.
import type { Queryable } from '../../db/db.js';

export interface StartFacts {
  project: boolean;
  api_key: boolean;
  workflow: boolean;
  automation: boolean;
  contact: boolean;
  hidden: boolean;
}

export async function readStartFacts(db: Queryable, accountId: string, userId: string): Promise<StartFacts> {
  const rows = await db.query<StartFacts>(
    `select exists (select 1 from projects where account_id = $1) as project,
            exists (select 1 from api_keys where account_id = $1 and revoked_at is null) as api_key,
            exists (select 1 from workflows where account_id = $1 and deleted_at is null) as workflow,
            exists (select 1 from automations where account_id = $1 and deleted_at is null) as automation,
            exists (select 1 from contacts where account_id = $1 and archived_at is null and erased_at is null) as contact,
            coalesce((select getting_started_hidden from users where account_id = $1 and id = $2), false) as hidden`,
    [accountId, userId],
  );
  return rows[0]!;
}

/** Hides or shows the checklist for one person; false when the user is not in the account. */
export async function setStartHidden(db: Queryable, accountId: string, userId: string, hidden: boolean): Promise<boolean> {
  const rows = await db.query(`update users set getting_started_hidden = $3 where account_id = $1 and id = $2 returning id`, [accountId, userId, hidden]);
  return rows.length > 0;
}
