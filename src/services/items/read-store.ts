// Content items: SQL. A project's list walks (account_id, project_id, updated_at desc, id desc)
// (content_items_project), or with a kind filter (account_id, project_id, kind, updated_at desc,
// id desc) (content_items_project_kind, migration 0012); updated_since is a range on the same key.
// Lists never read a page's text or html: those are detail only.
// Its home is services/, below api/, hub/ and cli/: /v1 and the hub read the same rows through it.
import type { Queryable } from '../../db/db.js';
import type { ItemKind } from '../../domain/project.js';
import type { ItemDetailRow, ItemRow } from '../../services/pages/store.js';
import { KeysetOrder, ListSql, type KeysetPage } from '../../db/keyset.js';

export type { ItemDetailRow, ItemRow } from '../../services/pages/store.js';

const COLUMNS = 'i.id, i.project_id, i.kind, i.title, i.attrs, i.created_at, i.updated_at';

export interface ItemFilters {
  kind?: ItemKind;
  updatedSince?: Date;
  /** The hub's title search (a trimmed substring, ignoring case); /v1 never passes it. */
  search?: string;
}

const ORDER = new KeysetOrder('i.updated_at', 'i.id', 'desc');

export async function listItems(db: Queryable, accountId: string, projectId: string, filters: ItemFilters, page: KeysetPage): Promise<ItemRow[]> {
  const w = new ListSql([accountId, projectId], ['i.account_id = $1', 'i.project_id = $2'])
    .eq('i.kind', filters.kind)
    .atLeast('i.updated_at', filters.updatedSince)
    .contains('i.title', filters.search)
    .after(ORDER, page);
  return db.query<ItemRow>(
    `select ${COLUMNS} from content_items i
      where ${w.sql}
      ${w.tail(ORDER, page)}`,
    w.params,
  );
}

export async function getItem(db: Queryable, accountId: string, id: string): Promise<ItemDetailRow | null> {
  const rows = await db.query<ItemDetailRow>(
    `select ${COLUMNS}, i.text, i.html from content_items i where i.account_id = $1 and i.id = $2`,
    [accountId, id],
  );
  return rows[0] ?? null;
}
