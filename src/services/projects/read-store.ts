// Projects: SQL. The list walks the (account_id, created_at desc, id desc) index projects_created.
// Settings and work-management columns are never selected: the content API does not expose them.
// Its home is services/, below api/, hub/ and cli/: /v1 and the hub read the same rows through it.
import type { Queryable } from '../../db/db.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

export interface ProjectRow {
  id: string;
  name: string;
  description: string;
  created_at: Date;
  updated_at: Date;
}

const SELECT = 'select p.id, p.name, p.description, p.created_at, p.updated_at from projects p';

const ORDER = new KeysetOrder('p.created_at', 'p.id', 'desc');

/** `search`: the hub's name search (a trimmed substring, ignoring case); /v1 never passes it. */
export async function listProjects(db: Queryable, accountId: string, page: KeysetPage, search?: string): Promise<ProjectRow[]> {
  const w = new ListSql([accountId], ['p.account_id = $1']).contains('p.name', search).after(ORDER, page);
  return db.query<ProjectRow>(`${SELECT} where ${w.sql} ${w.tail(ORDER, page)}`, w.params);
}

export async function getProject(db: Queryable, accountId: string, id: string): Promise<ProjectRow | null> {
  const rows = await db.query<ProjectRow>(`${SELECT} where p.account_id = $1 and p.id = $2`, [accountId, id]);
  return rows[0] ?? null;
}
