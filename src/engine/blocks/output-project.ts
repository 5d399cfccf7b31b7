// output.project: writes the run's result as a page in the workflow's project, exactly once per
// step (DESIGN 8, "records an idempotency key before acting").
//
// The step's effectKey is stored in the page's attrs; look-up and insert happen in one
// transaction under a transaction-scoped advisory lock on that key, so a resumed step, or a stale
// worker racing the new one, finds the page instead of making a second one.
//
// The page is stored as the content API stores one made from Markdown: text = the Markdown,
// html = its sanitised rendering (src/lib/page.ts), held to the same size limit.
import { uuidv7 } from '../../lib/ids.js';
import { MAX_PAGE_BYTES, MAX_PAGE_TITLE_LENGTH, pageBytes, PageRenderError, type RenderedPage } from '../../lib/page.js';
import { isFinal, type RunStatus } from '../../domain/workflow.js';
import type { Block, BlockResult } from '../types.js';
import { LIMIT_MESSAGES } from './agent.js';
import { checkString, joinedInput, onlyFields } from './text.js';

/** Namespace of the two-key advisory locks taken here (the one-key space holds LOCKS in db.ts). */
const EFFECT_LOCK_NS = 726_101;

export const outputProject: Block = {
  kind: 'output.project',
  validate: (c) => onlyFields(c, ['title']) ?? checkString(c, 'title', { maxLength: MAX_PAGE_TITLE_LENGTH }),
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
      await tx.query('select pg_advisory_xact_lock($1, hashtext($2))', [EFFECT_LOCK_NS, ctx.effectKey]);
      // A run cancelled (or stopped) while this block worked makes no page: a final run changes
      // nothing more. The share lock makes a concurrent cancel and this insert take turns.
      const [run] = await tx.query<{ status: RunStatus }>(
        'select status from workflow_runs where account_id = $1 and id = $2 for share',
        [accountId, runId],
      );
      if (run && isFinal(run.status)) return 'ended' as const;
      const existing = await tx.query<{ id: string }>(
        `select id from content_items
          where account_id = $1 and project_id = $2 and attrs ->> 'effect_key' = $3
          limit 1`,
        [accountId, projectId, ctx.effectKey],
      );
      if (existing.length) return { id: existing[0].id };
      const project = await tx.query('select 1 from projects where account_id = $1 and id = $2', [accountId, projectId]);
      if (project.length === 0) return null;
      const id = uuidv7();
      await tx.query(
        `insert into content_items (account_id, id, project_id, kind, title, text, html, attrs, created_by_key)
         values ($1, $2, $3, 'page', $4, $5, $6, $7, $8)`,
        [accountId, id, projectId, title, page.text, page.html, JSON.stringify({ effect_key: ctx.effectKey }), keyId],
      );
      return { id };
    });
    if (!found) return { status: 'failed', error: 'project not found' };
    if (found === 'ended') return { status: 'limit', error: LIMIT_MESSAGES.ended };
    return { status: 'succeeded', output: { text, item_id: found.id, title } };
  },
};
