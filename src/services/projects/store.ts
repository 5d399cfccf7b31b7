// Projects, write side: a new project row. Its settings start empty, so the engine and the hub's
// settings read the defaults (services/settings effectiveSettings); work management stays closed
// (no prefix) until the project opens it. The read side is src/services/projects/read-store.ts.
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';

export interface NewProjectRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

export async function insertProject(tx: Queryable, accountId: string, id: string, name: string, description: string): Promise<NewProjectRow> {
  const row = oneRow(await tx.query<NewProjectRow>(
    `insert into projects (account_id, id, name, description) values ($1, $2, $3, $4)
     returning id, name, description, created_at, updated_at`,
    [accountId, id, name, description],
  ), 'the inserted project');
  return row;
}
