// Pages: the write side of content items (a new page, under a lock on its project) and the item
// row shapes every reader shares (the /v1 and hub reads in src/services/items/read-store.ts).
import type { Queryable } from '../../db/db.js';
import { oneRow } from '../../db/rows.js';
import type { ItemKind } from '../../domain/project.js';

export interface ItemRow {
  id: string;
  project_id: string;
  kind: ItemKind;
  title: string;
  /** The kind's small fields (and internal markers such as an engine step's effect_key). */
  attrs: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface ItemDetailRow extends ItemRow {
  text: string | null;
  html: string | null;
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

export interface NewPage {
  accountId: string;
  id: string;
  projectId: string;
  title: string;
  text: string;
  html: string;
  /** The API key that created it; null for a page made in the hub (its audit entry names the user). */
  keyId: string | null;
}

export async function insertPage(db: Queryable, p: NewPage): Promise<ItemDetailRow> {
  const rows = await db.query<ItemDetailRow>(
    `insert into content_items (account_id, id, project_id, kind, title, text, html, created_by_key)
     values ($1, $2, $3, 'page', $4, $5, $6, $7)
     returning id, project_id, kind, title, attrs, created_at, updated_at, text, html`,
    [p.accountId, p.id, p.projectId, p.title, p.text, p.html, p.keyId],
  );
  return oneRow(rows, 'the inserted page');
}
