// Content items: GET /projects/{id}/items, GET /items/{id}, and page creation
// (POST /projects/{id}/items). The route file is the contract; the item shapes are in schemas.ts.
import type { AppDeps } from '../../http/deps.js';
import { found, notFound } from '../../domain/errors.js';
import { listByTime } from '../../http/list.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ListEnvelope } from '../../http/schemas.js';
import { idempotent } from '../../idempotency/index.js';
import { MAX_PAGE_BYTES, PAGE_HTML_POLICY } from '../../lib/page.js';
import { convertPage, insertConvertedPage, pageInput } from '../../services/pages/service.js';
import { projectExists } from '../../services/pages/store.js';
import { renderItem, renderItemSummary } from './render.js';
import { CreatePageBody, CreatePageHeaders, IdParams, Item, ItemSummary, ListItemsQuery } from './schemas.js';
import { getItem, listItems, type ItemRow } from '../../services/items/read-store.js';

export function registerItemRoutes(app: App, deps: AppDeps): void {
  const items = listByTime(deps.cursors, (r: ItemRow) => r.updated_at);
  app.get(
    '/projects/:id/items',
    {
      config: meta({ scope: 'content:read', write: false }),
      schema: {
        operationId: 'listProjectItems',
        summary: "List a project's items",
        description:
          "The project's content items, most recently updated first (updated_at, then id). Each has the common fields and " +
          "its kind's small fields; a page's text and html are in Get an item only.",
        tags: ['Content'],
        params: IdParams,
        querystring: ListItemsQuery,
        response: v1Responses({ 200: ListEnvelope(ItemSummary, 'ItemList') }),
      },
    },
    async (request) => {
      const projectId = request.params.id;
      const { kind, updated_since } = request.query;
      const since = updated_since === undefined ? undefined : new Date(updated_since);
      // The project is part of the cursor's scope: a cursor of one project's list is refused on another's.
      const page = items.start(request, request.query, { project: projectId.toLowerCase(), kind, updated_since });
      if (!(await projectExists(deps.db, page.accountId, projectId))) throw notFound('project');
      const rows = await listItems(deps.db, page.accountId, projectId, { kind, updatedSince: since }, page);
      return items.page(page, rows, renderItemSummary);
    },
  );

  app.get(
    '/items/:id',
    {
      config: meta({ scope: 'content:read', write: false }),
      schema: {
        operationId: 'getItem',
        summary: 'Get an item',
        description:
          "Any content item with its kind's fields; a page also has text (its Markdown, or the plain-text rendition of a page " +
          'created from HTML) and html (sanitised). Files are described, never downloadable: no URL to their bytes.',
        tags: ['Content'],
        params: IdParams,
        response: v1Responses({ 200: Item }),
      },
    },
    async (request) => {
      return renderItem(found(await getItem(deps.db, authOf(request).accountId, request.params.id), 'item'));
    },
  );

  app.post(
    '/projects/:id/items',
    {
      config: meta({ scope: 'content:write', write: true }),
      schema: {
        operationId: 'createPage',
        summary: 'Create a page',
        description:
          'Creates a page in the project from Markdown or from HTML: {title, markdown} or {title, html}, exactly one of the two. ' +
          'Markdown is converted to HTML (raw HTML inside it included) and every HTML is sanitised. ' +
          `A page over ${MAX_PAGE_BYTES} bytes (512 KiB) of UTF-8 HTML once converted and sanitised is refused with ` +
          '413 page_too_large and nothing is written (also a source whose conversion would outgrow the converter\'s memory); ' +
          'a source that cannot be converted (too complex or nested too deeply to finish within a few seconds) is 422 ' +
          'invalid_field. Accounts take turns at the converters; with a few of its pages already waiting, an account gets ' +
          '429 rate_limited with Retry-After. Idempotency-Key is optional: with it, a retry with the same ' +
          'key and body returns the first answer with Idempotent-Replay: true; without it, every request makes a new page.\n\n' +
          PAGE_HTML_POLICY,
        tags: ['Content'],
        params: IdParams,
        headers: CreatePageHeaders,
        body: CreatePageBody,
        response: v1Responses({ 201: Item }, [409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const input = pageInput(request.body);
      const auth = authOf(request);
      const page = await convertPage(deps.pages, auth.accountId, input.source, input.field);
      return idempotent(
        request,
        reply,
        { db: deps.db, accountId: auth.accountId, lockTimeoutMs: deps.config.idempotencyLockTimeoutMs, required: false },
        async (tx) => {
          const row = await insertConvertedPage(tx, { accountId: auth.accountId, projectId: id, title: input.title, page, keyId: auth.keyId });
          return { status: 201, body: renderItem(row) };
        },
      );
    },
  );
}
