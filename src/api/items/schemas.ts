// The content item shapes (docs/architecture.md §12.8 "Item"): common fields, then the kind's own.
// One schema per kind, told apart by `kind`. In a list a page has the common fields only (its text
// and html can be large); Get an item adds them. Files and images are described, never linked to
// their bytes. Then the list's query and a new page's body. Pure: TypeBox and src/domain only
// (render.ts fills the shapes from rows).
import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { ITEM_KINDS, MAX_PAGE_TITLE_LENGTH, type ItemKind } from '../../domain/project.js';

const common = <K extends ItemKind>(kind: K) => ({
  id: Uuid,
  project_id: Uuid,
  kind: Type.Literal<K>(kind),
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
export type ItemSummary = Static<typeof ItemSummary>;
export type Item = Static<typeof Item>;

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
export const ListItemsQuery = Type.Object(
  {
    ...ListQuery,
    kind: Type.Optional(StringEnum(ITEM_KINDS, { description: 'Only items of this kind.' })),
    updated_since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only items updated at or after this time (ISO 8601 date-time with a time zone).' }),
    ),
  },
  { additionalProperties: false },
);
export type ListItemsQuery = Static<typeof ListItemsQuery>;
export const CreatePageBody = Type.Object(
  {
    // One line once trimmed (checked in pageInput: a trailing newline is trimmed, not refused).
    title: Type.String({
      minLength: 1,
      maxLength: MAX_PAGE_TITLE_LENGTH,
      description: `The page title: one line of 1 to ${MAX_PAGE_TITLE_LENGTH} characters, not blank; surrounding spaces are trimmed.`,
    }),
    markdown: Type.Optional(Type.String({ description: 'The page as Markdown (GitHub-flavoured). Send this or html, not both.' })),
    html: Type.Optional(Type.String({ description: 'The page as HTML. Send this or markdown, not both.' })),
  },
  {
    additionalProperties: false,
    examples: [{ title: 'Release notes', markdown: '# Release notes\n\n- Faster search\n- [Docs](https://docs.example.com/)' }],
  },
);
export type CreatePageBody = Static<typeof CreatePageBody>;
export const CreatePageHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Optional: 8 to 64 printable characters without spaces. Without it, every request makes a new page.' }),
  ),
});
export type CreatePageHeaders = Static<typeof CreatePageHeaders>;
