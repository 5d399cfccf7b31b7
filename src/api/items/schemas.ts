// The content item shapes (docs/architecture.md §12.8 "Item"): common fields, then the kind's own.
// One schema per kind, told apart by `kind`. In a list a page has the common fields only (its text
// and html can be large); Get an item adds them. Files and images are described, never linked to
// their bytes.
import { Type, type Static, type TLiteral, type TProperties } from '@sinclair/typebox';
import { DateTime, Nullable, Uuid } from '../../http/schemas.js';
import { storedPageHtml } from '../../lib/page.js';
import { iso } from '../../lib/time.js';
import type { ItemKind } from '../../domain/project.js';
import type { ItemDetailRow, ItemRow } from './store.js';

const common = <K extends ItemKind>(kind: K) => ({
  id: Uuid,
  project_id: Uuid,
  kind: Type.Literal(kind) as TLiteral<K>,
  title: Type.String(),
  created_at: DateTime,
  updated_at: DateTime,
});

const kindSchema = <K extends ItemKind, P extends TProperties>(kind: K, title: string, description: string, fields: P) =>
  Type.Object({ ...common(kind), ...fields }, { title, description });

const FILE_FIELDS = {
  filename: Type.String({ description: 'The file name.' }),
  content_type: Type.String({ description: 'Its media type, such as application/pdf.' }),
  size_bytes: Type.Integer({ minimum: 0, description: 'Its size in bytes.' }),
};

const FileItem = kindSchema('file', 'FileItem', 'A file, described; its bytes are not downloadable through the API.', FILE_FIELDS);
const DatasetItem = kindSchema('dataset', 'DatasetItem', 'A dataset.', {
  row_count: Type.Integer({ minimum: 0 }),
  columns: Type.Array(Type.String(), { description: 'Column names, in order.' }),
});
const ImageItem = kindSchema('image', 'ImageItem', 'An image, described; its bytes are not downloadable through the API.', {
  width: Type.Integer({ description: 'In pixels.' }),
  height: Type.Integer({ description: 'In pixels.' }),
  alt: Type.String({ description: 'Alternative text; may be an empty string.' }),
  filename: Nullable(Type.String({ description: 'The file name; null when the image has no file details.' })),
  content_type: Nullable(Type.String({ description: 'Its media type, such as image/png; null when unknown.' })),
  size_bytes: Nullable(Type.Integer({ minimum: 0, description: 'Its size in bytes; null when unknown.' })),
});
const LinkItem = kindSchema('link', 'LinkItem', 'A link to a web address.', { url: Type.String({ description: 'An http or https URL.' }) });
const PageSummary = kindSchema('page', 'PageItemSummary', 'A page, in a list: its text and html are in Get an item.', {});
const PageItem = kindSchema('page', 'PageItem', 'A page.', {
  text: Type.String({
    description:
      'The page as Markdown (as it was sent, not sanitised: render html instead), or the plain-text rendition of a page created from HTML.',
  }),
  html: Type.String({ description: 'The page as sanitised HTML.' }),
});

const KIND_NOTE = 'One shape per kind (page, file, dataset, image, link), told apart by kind; more kinds may be added.';
export const ItemSummary = Type.Union([PageSummary, FileItem, DatasetItem, ImageItem, LinkItem], {
  title: 'ItemSummary',
  description: `A content item in a list. ${KIND_NOTE}`,
});
export const Item = Type.Union([PageItem, FileItem, DatasetItem, ImageItem, LinkItem], {
  title: 'Item',
  description: `A content item. ${KIND_NOTE}`,
});
type ItemSummaryOut = Static<typeof ItemSummary>;
type ItemOut = Static<typeof Item>;

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
export function renderItemSummary(r: ItemRow): ItemSummaryOut {
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

export function renderItem(r: ItemDetailRow): ItemOut {
  if (r.kind !== 'page') return renderItemSummary(r) as ItemOut;
  const text = r.text ?? '';
  return { ...base(r), kind: 'page', text, html: storedPageHtml(text, r.html) };
}
