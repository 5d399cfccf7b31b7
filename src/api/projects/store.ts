// Projects: SQL. The list walks the (account_id, created_at desc, id desc) index projects_created.
// Settings and work-management columns are never selected: the content API does not expose them.
import type { Queryable } from '../../db/db.js';

export interface ProjectRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

const SELECT = 'select p.id, p.name, p.description, p.created_at, p.updated_at from projects p';

export async function listProjects(
  db: Queryable,
  accountId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<ProjectRow[]> {
  const params: unknown[] = [accountId];
  let keyset = '';
  if (after) {
    params.push(after.createdAt, after.id);
    keyset = 'and (p.created_at, p.id) < ($2, $3)';
  }
  params.push(limit);
  return db.query<ProjectRow>(
    `${SELECT} where p.account_id = $1 ${keyset} order by p.created_at desc, p.id desc limit $${params.length}`,
    params,
  );
}

export async function getProject(db: Queryable, accountId: string, id: string): Promise<ProjectRow | null> {
  const rows = await db.query<ProjectRow>(`${SELECT} where p.account_id = $1 and p.id = $2`, [accountId, id]);
  return rows[0] ?? null;
}

/**
 * Whether the project exists in the account. `lock` holds it (FOR KEY SHARE) until the
 * transaction ends, so an item inserted into it cannot lose its project in between.
 */
export async function projectExists(db: Queryable, accountId: string, id: string, lock = false): Promise<boolean> {
  const rows = await db.query(
    `select 1 from projects where account_id = $1 and id = $2${lock ? ' for key share' : ''}`,
    [accountId, id],
  );
  return rows.length > 0;
}
