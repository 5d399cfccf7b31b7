// What the content pages share: the API's shapes (the /v1 Project and Item schemas), the one way a
// page's HTML is shown, and the debounce the editor's preview waits with.
export interface Project {
  id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

import { ITEM_KINDS } from '@domain/project';
export { ITEM_KINDS };
export type ItemKind = (typeof ITEM_KINDS)[number];

/** An item: the common fields, then its kind's own (a page's text and html in detail only). */
export interface Item {
  id: string;
  project_id: string;
  kind: ItemKind;
  title: string;
  created_at: string;
  updated_at: string;
  text?: string;
  html?: string;
  url?: string;
  filename?: string | null;
  content_type?: string | null;
  size_bytes?: number | null;
  row_count?: number;
  columns?: string[];
  width?: number;
  height?: number;
  alt?: string;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * A page's HTML, only ever here: in an iframe with an empty sandbox (no script, no same origin, no
 * forms, no top navigation) fed by srcDoc, so even HTML the sanitiser missed cannot act.
 */
export function PageFrame({ html, title }: { html: string; title: string }) {
  return <iframe className="sandboxed" sandbox="" srcDoc={html} title={title} />;
}
