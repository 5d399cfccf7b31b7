// output.project: writes the run's result as a page in the workflow's project, exactly once per
// step (docs/architecture.md §10.2, "records an idempotency key before acting").
//
// The step's effectKey is stored in the page's attrs; look-up and insert happen in one
// transaction under a transaction-scoped advisory lock on that key, so a resumed step, or a stale
// worker racing the new one, finds the page instead of making a second one.
//
// The page is stored as the content API stores one made from Markdown: text = the Markdown,
// html = its sanitised rendering (src/lib/page.ts), held to the same size limit.
import { MAX_PAGE_BYTES, pageBytes, PageRenderError, type RenderedPage } from '../../lib/page.js';
import { isFinal } from '../../domain/workflow.js';
import type { Block, BlockResult } from '../types.js';
import { LIMIT_MESSAGES } from './agent.js';
import { insertRunPage, lockEffect, pageByEffectKey, projectExists, runStatusForShare } from './store.js';
import { joinedInput } from './text.js';
import { configProblem } from './schema.js';

export const outputProject: Block = {
  kind: 'output.project',
  validate: (c) => configProblem('output.project', c),
  async execute(ctx): Promise<BlockResult> {
    const { accountId, projectId, keyId, runId } = ctx.run;
    if (!projectId) return { status: 'failed', error: 'workflow has no project' };
    const title = String(ctx.block.config.title);
    const text = joinedInput(ctx.inputs);
    let page: RenderedPage;
    try {
      page = await ctx.providers.pages.render({ markdown: text }, { owner: accountId });
    } catch (err) {
      if (!(err instanceof PageRenderError)) throw err;
      if (err.reason === 'too_large') return { status: 'failed', error: `page too large: over ${MAX_PAGE_BYTES} bytes` };
      return { status: 'failed', error: `page could not be rendered: ${err.message}` };
    }
    if (pageBytes(page) > MAX_PAGE_BYTES) {
      return { status: 'failed', error: `page too large: over ${MAX_PAGE_BYTES} bytes` };
    }
    const found = await ctx.db.transaction(async (tx) => {
      await lockEffect(tx, ctx.effectKey);
      // A run cancelled (or stopped) while this block worked makes no page: a final run changes
      // nothing more. The share lock makes a concurrent cancel and this insert take turns.
      const status = await runStatusForShare(tx, accountId, runId);
      if (status && isFinal(status)) return 'ended' as const;
      const existing = await pageByEffectKey(tx, accountId, projectId, ctx.effectKey);
      if (existing) return { id: existing };
      if (!(await projectExists(tx, accountId, projectId))) return null;
      const id = await insertRunPage(tx, { accountId, projectId, title, text: page.text, html: page.html, effectKey: ctx.effectKey, keyId });
      return { id };
    });
    if (!found) return { status: 'failed', error: 'project not found' };
    if (found === 'ended') return { status: 'limit', error: LIMIT_MESSAGES.ended };
    return { status: 'succeeded', output: { text, item_id: found.id, title } };
  },
};
