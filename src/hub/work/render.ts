// An item as the hub shows it: /v1's detail (api/workmgmt/render.ts), each history entry with the
// seq a comment is edited by, a comment's edited_at, and the Markdown of the description and of
// each comment as HTML beside its source. /v1 keeps the source only (the spec's description is the
// text as written). The HTML is made on read by the page renderer (marked, then the page
// sanitizer's allow-list: src/lib/page.ts), off the event loop and under its deadline; nothing
// stored changes, so fixtures, task.create and older rows read the same way.
import type { AppDeps } from '../../http/deps.js';
import { PageRenderError } from '../../lib/page.js';
import { iso } from '../../lib/time.js';
import { loadItemDetail } from '../../api/workmgmt/read.js';
import { renderItemDetail } from '../../api/workmgmt/render.js';
import type { HubWorkItem } from './schemas.js';

/**
 * Markdown → sanitised HTML; null when it cannot be converted (too large, or past the deadline):
 * the screen then shows the source as plain text rather than the read failing.
 */
async function markdownHtml(deps: AppDeps, accountId: string, markdown: string): Promise<string | null> {
  if (markdown.trim() === '') return '';
  try {
    return (await deps.pages.render({ markdown }, { owner: accountId })).html;
  } catch (err) {
    if (err instanceof PageRenderError) return null;
    throw err;
  }
}

/** The item by key (any of its project's prefixes), 404 like /v1 for a deleted or unknown one. */
export async function hubWorkItem(deps: AppDeps, accountId: string, projectId: string, key: string): Promise<HubWorkItem> {
  const { project, item, docs, history } = await loadItemDetail(deps, accountId, projectId, key);
  const detail = renderItemDetail(project.wm_prefix, item, docs, history);
  const [descriptionHtml, ...commentHtml] = await Promise.all([
    markdownHtml(deps, accountId, item.description),
    ...history.map((h) => (h.kind === 'comment' ? markdownHtml(deps, accountId, h.text ?? '') : null)),
  ]);
  // renderItemDetail keeps the rows' order, one entry a row.
  return {
    ...detail,
    description_html: descriptionHtml ?? null,
    history: detail.history.map((h, i) => {
      const row = history[i]!;
      if (h.kind !== 'comment') return { ...h, seq: row.seq };
      return { ...h, seq: row.seq, edited_at: row.edited_at === null ? null : iso(row.edited_at), html: commentHtml[i] ?? null };
    }),
  };
}
