// A content item as the content API and the hub show it, from its row: the kind's own fields come
// from attrs (schemas.ts has the shapes).
import { storedPageHtml } from '../../lib/page.js';
import { iso } from '../../lib/time.js';
import type { Item, ItemSummary } from './schemas.js';
import type { ItemDetailRow, ItemRow } from '../../services/items/read-store.js';

// attrs come from the fixture loader, which fills every field of a kind (with these same
// defaults); the fallbacks only keep a hand-edited row from breaking the answer.
const str = (v: unknown, def = ''): string => (typeof v === 'string' ? v : def);
const int = (v: unknown, def = 0): number => (Number.isInteger(v) ? (v as number) : def);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const intOrNull = (v: unknown): number | null => (Number.isInteger(v) ? (v as number) : null);

function base(r: ItemRow) {
  return { id: r.id, project_id: r.project_id, title: r.title, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
}

/** The list shape; for every kind but page it is also the detail shape. */
export function renderItemSummary(r: ItemRow): ItemSummary {
  const a = r.attrs ?? {};
  switch (r.kind) {
    case 'page':
      return { ...base(r), kind: 'page' };
    case 'file':
      return {
        ...base(r),
        kind: 'file',
        filename: str(a.filename),
        content_type: str(a.content_type, 'application/octet-stream'),
        size_bytes: int(a.size_bytes),
      };
    case 'dataset':
      return {
        ...base(r),
        kind: 'dataset',
        row_count: int(a.row_count),
        columns: Array.isArray(a.columns) ? a.columns.filter((c): c is string => typeof c === 'string') : [],
      };
    case 'image':
      return {
        ...base(r),
        kind: 'image',
        width: int(a.width),
        height: int(a.height),
        alt: str(a.alt),
        filename: strOrNull(a.filename),
        content_type: strOrNull(a.content_type),
        size_bytes: intOrNull(a.size_bytes),
      };
    case 'link':
      return { ...base(r), kind: 'link', url: str(a.url) };
  }
}

export function renderItem(r: ItemDetailRow): Item {
  if (r.kind !== 'page') return renderItemSummary(r) as Item;
  const text = r.text ?? '';
  return { ...base(r), kind: 'page', text, html: storedPageHtml(text, r.html) };
}
