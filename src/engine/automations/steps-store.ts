// The automation steps' own writes to the account's records (tag.add, field.set, task.create) and
// notify.team's recipients; each runs in the step's transaction.
import type { Queryable } from '../../db/db.js';
import { STEP_SETTABLE_FIELDS, type StepSettableField } from '../../domain/contact.js';
import { uuidv7 } from '../../lib/ids.js';

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

/**
 * Creates a task in the project's work management, taking the next item number under the project
 * row's lock (as the hub does); null when the project has no work management.
 */
export async function createTask(
  tx: Queryable,
  accountId: string,
  projectId: string | null,
  title: string,
  description: string,
): Promise<{ number: number; prefix: string } | null> {
  const [p] = await tx.query<{ number: number; prefix: string }>(
    `update projects set wm_next_number = wm_next_number + 1
        where account_id = $1 and id = $2 and wm_prefix is not null
        returning wm_next_number - 1 as number, wm_prefix as prefix`,
    [accountId, projectId],
  );
  if (!p) return null;
  await tx.query(
    `insert into wm_items (account_id, id, project_id, number, type, title, description) values ($1, $2, $3, $4, 'task', $5, $6)`,
    [accountId, uuidv7(), projectId, p.number, title, description],
  );
  return p;
}

/** The account's users, oldest first: notify.team writes to each. */
export async function teamOf(tx: Queryable, accountId: string): Promise<{ id: string; email: string }[]> {
  return tx.query<{ id: string; email: string }>(`select id, email from users where account_id = $1 order by created_at, id`, [accountId]);
}
