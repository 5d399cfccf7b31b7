// The automation steps' own writes to the account's records (tag.add, field.set) and notify.team's
// recipients; each runs in the step's transaction. task.create writes through ../work-item-store.ts,
// the statement the hub's work items are created by.
import type { Queryable } from '../../db/db.js';
import { STEP_SETTABLE_FIELDS, type StepSettableField } from '../../domain/contact.js';

/** Adds the tag unless the contact has it (a repeat leaves updated_at alone). */
export async function addContactTag(tx: Queryable, accountId: string, contactId: string, tag: string): Promise<void> {
  await tx.query(
    `update contacts set tags = array_append(tags, $3), updated_at = clock_timestamp()
        where account_id = $1 and id = $2 and not ($3 = any (tags))`,
    [accountId, contactId, tag],
  );
}

/** One statement per settable field: the column name is only ever one of the domain's list. */
const SET_FIELD_SQL = Object.fromEntries(
  STEP_SETTABLE_FIELDS.map((f) => [f, `update contacts set ${f} = $3, updated_at = clock_timestamp() where account_id = $1 and id = $2`]),
) as Record<StepSettableField, string>;

export async function setContactField(tx: Queryable, accountId: string, contactId: string, field: StepSettableField, value: unknown): Promise<void> {
  await tx.query(SET_FIELD_SQL[field], [accountId, contactId, value]);
}

/** The account's users, oldest first: notify.team writes to each. */
export async function teamOf(tx: Queryable, accountId: string): Promise<{ id: string; email: string }[]> {
  return tx.query<{ id: string; email: string }>(`select id, email from users where account_id = $1 order by created_at, id`, [accountId]);
}
