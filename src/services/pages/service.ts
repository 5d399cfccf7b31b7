// Creating a page from Markdown or HTML: the one place its rules hold, for POST
// /v1/projects/{id}/items and the hub (which also previews the sanitised result without saving).
// The input is checked, then converted and sanitised off the event loop, and only then written:
// a refusal leaves nothing behind.
import type { Queryable } from '../../db/db.js';
import { ApiError, notFound } from '../../domain/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { MAX_PAGE_BYTES, pageBytes, PageRenderError, type PageSource, type RenderedPage } from '../../lib/page.js';
import type { PageRenderer } from '../../lib/page-renderer.js';
import { textProblem } from '../../lib/text.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { insertPage, projectExists, type ItemDetailRow } from './store.js';

export type PageField = 'markdown' | 'html';

/** Exactly one of markdown and html. */
export function pageSource(body: { markdown?: string; html?: string }): { source: PageSource; field: PageField } {
  if (body.markdown !== undefined && body.html !== undefined) {
    throw new ApiError('invalid_field', 'Send the page as markdown or as html, not both.', { param: 'html' });
  }
  if (body.markdown === undefined && body.html === undefined) {
    throw new ApiError('missing_field', 'The field markdown (or html) is required.', { param: 'markdown' });
  }
  return body.markdown !== undefined ? { source: { markdown: body.markdown }, field: 'markdown' } : { source: { html: body.html! }, field: 'html' };
}

/** The title trimmed, one line, not blank (a trailing newline is trimmed, not refused). */
export function pageTitle(raw: string): string {
  const title = raw.trim();
  if (title === '') throw new ApiError('invalid_field', 'The field title must not be blank.', { param: 'title' });
  const problem = textProblem(title, 'single-line');
  if (problem !== null) throw new ApiError('invalid_field', `The field title ${problem}.`, { param: 'title' });
  return title;
}

export interface PageInput {
  title: string;
  source: PageSource;
  field: PageField;
}

export function pageInput(body: { title: string; markdown?: string; html?: string }): PageInput {
  const { source, field } = pageSource(body);
  return { title: pageTitle(body.title), source, field };
}

const BUSY_RETRY_S = 3;

/** Converts and sanitises; the refusals name the field the source came in. */
export async function convertPage(pages: PageRenderer, accountId: string, source: PageSource, field: PageField): Promise<RenderedPage> {
  let page: RenderedPage;
  try {
    page = await pages.render(source, { owner: accountId, bounded: true });
  } catch (err) {
    if (!(err instanceof PageRenderError)) throw err;
    switch (err.reason) {
      case 'too_large':
        throw new ApiError('page_too_large', `The page would be far over ${MAX_PAGE_BYTES} bytes (512 KiB) once converted to HTML.`, { param: field });
      case 'busy':
        // The account's conversions share the workers with every other account's: past a few
        // waiting, it waits its turn outside the server.
        throw new ApiError('rate_limited', `Too many pages of this account are being converted; wait ${BUSY_RETRY_S} s.`, {
          headers: { 'retry-after': String(BUSY_RETRY_S) },
        });
      case 'timeout':
      case 'failed':
        throw new ApiError('invalid_field', `The ${field} could not be converted to a page: ${err.message}.`, { param: field });
    }
  }
  const bytes = pageBytes(page);
  if (bytes > MAX_PAGE_BYTES) {
    throw new ApiError('page_too_large', `The page is ${bytes} bytes once converted to HTML; the limit is ${MAX_PAGE_BYTES} bytes (512 KiB).`, {
      param: field,
    });
  }
  return page;
}

export interface NewPageInput {
  accountId: string;
  projectId: string;
  title: string;
  page: RenderedPage;
  /** The API key creating it (/v1), or null (the hub). */
  keyId: string | null;
  /** A hub user: the page.created audit entry is written in the same transaction. */
  actor?: Actor;
}

/** Writes a converted page into its project (404 when the project is not the account's). Inside a transaction. */
export async function insertConvertedPage(tx: Queryable, p: NewPageInput): Promise<ItemDetailRow> {
  if (!(await projectExists(tx, p.accountId, p.projectId, true))) throw notFound('project');
  const row = await insertPage(tx, {
    accountId: p.accountId,
    id: uuidv7(),
    projectId: p.projectId,
    title: p.title,
    text: p.page.text,
    html: p.page.html,
    keyId: p.keyId,
  });
  if (p.actor) {
    await recordAudit(tx, {
      accountId: p.accountId,
      actor: p.actor,
      action: 'page.created',
      objectKind: 'item',
      objectId: row.id,
      detail: { project_id: p.projectId, title: p.title },
    });
  }
  return row;
}

/** The hub's creation: check, convert, then write the page and its audit entry in one transaction. */
export async function createPage(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  pages: PageRenderer,
  input: { accountId: string; projectId: string; body: { title: string; markdown?: string; html?: string }; actor: Actor },
): Promise<ItemDetailRow> {
  const { title, source, field } = pageInput(input.body);
  const page = await convertPage(pages, input.accountId, source, field);
  return db.transaction((tx) => insertConvertedPage(tx, { accountId: input.accountId, projectId: input.projectId, title, page, keyId: null, actor: input.actor }));
}
