// Blocks that bring text into a run: source.text, source.web, source.item. They ignore inputs.
import { isUuid } from '../../lib/ids.js';
import type { Block, BlockContext, BlockResult } from '../types.js';
import { checkString, htmlToText, looksLikeHtml, onlyFields } from './text.js';
import { readItem } from './store.js';

/** Long enough for real material, short enough that a workflow definition stays a small row. */
const MAX_TEXT = 100_000;
const MAX_URL = 2_048;

export const sourceText: Block = {
  kind: 'source.text',
  validate: (c) => onlyFields(c, ['text']) ?? checkString(c, 'text', { maxLength: MAX_TEXT }),
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
    validate(c) {
      const bad = onlyFields(c, ['url']) ?? checkString(c, 'url', { maxLength: MAX_URL });
      if (bad) return bad;
      let u: URL;
      try {
        u = new URL(String(c.url));
      } catch {
        return 'config.url must be an http(s) URL';
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'config.url must be an http(s) URL';
      if (u.username || u.password) return 'config.url must not carry a user name or password';
      return null;
    },
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
  validate(c) {
    const bad = onlyFields(c, ['item_id']);
    if (bad) return bad;
    return isUuid(c.item_id) ? null : 'config.item_id must be a content item id (a UUID)';
  },
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
