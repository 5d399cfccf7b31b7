// Blocks that bring text into a run: source.text, source.web, source.item. They ignore inputs.
import { isUuid } from '../../lib/ids.js';
import type { Block, BlockContext, BlockResult } from '../types.js';
import { htmlToText, looksLikeHtml } from './text.js';
import { configProblem } from './schema.js';
import { readItem } from './store.js';

export const sourceText: Block = {
  kind: 'source.text',
  validate: (c) => configProblem('source.text', c),
  async execute(ctx) {
    return { status: 'succeeded', output: { text: String(ctx.block.config.text) } };
  },
};

export interface WebSettings {
  webTimeoutMs: number;
  webMaxBytes: number;
}

export function sourceWeb(settings: WebSettings): Block {
  return {
    kind: 'source.web',
    validate: (c) => configProblem('source.web', c),
    async execute(ctx): Promise<BlockResult> {
      const url = String(ctx.block.config.url);
      let body: string;
      try {
        body = await ctx.providers.fetchText(url, {
          signal: ctx.signal,
          maxBytes: settings.webMaxBytes,
          timeoutMs: settings.webTimeoutMs,
        });
      } catch (err) {
        return { status: 'failed', error: `source.web: ${(err as Error).message}` };
      }
      // Pages feed prompts billed per token: markup is noise, so HTML becomes its visible text.
      return { status: 'succeeded', output: { text: looksLikeHtml(body) ? htmlToText(body) : body, url } };
    },
  };
}

/** A non-page item as text: its title, then its fields one per line ("filename: deck.pdf"). */
function itemAsText(title: string, attrs: Record<string, unknown>): string {
  const lines = [title];
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'effect_key' || v === null || v === undefined) continue; // engine bookkeeping, not content
    lines.push(`${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  }
  return lines.join('\n');
}

export const sourceItem: Block = {
  kind: 'source.item',
  validate: (c) => configProblem('source.item', c),
  async execute(ctx: BlockContext): Promise<BlockResult> {
    const id = String(ctx.block.config.item_id);
    if (!isUuid(id)) return { status: 'failed', error: 'item not found' }; // unvalidated config: not a query
    // Scoped to the run's account: another account's item is "not found", never readable.
    const item = await readItem(ctx.db, ctx.run.accountId, id);
    if (!item) return { status: 'failed', error: 'item not found' };
    const text = item.kind === 'page' && item.text !== null ? item.text : itemAsText(item.title, item.attrs ?? {});
    return { status: 'succeeded', output: { text, item_id: id, title: item.title, kind: item.kind } };
  },
};
