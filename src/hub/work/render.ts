// An item as the hub shows it: /v1's detail (api/workmgmt/render.ts), each history entry with the
// seq a comment is edited by, and a comment's edited_at.
import type { AppDeps } from '../../http/deps.js';
import { iso } from '../../lib/time.js';
import { loadItemDetail } from '../../api/workmgmt/read.js';
import { renderItemDetail } from '../../api/workmgmt/render.js';
import type { HubWorkItem } from './schemas.js';

/** The item by key (any of its project's prefixes), 404 like /v1 for a deleted or unknown one. */
export async function hubWorkItem(deps: AppDeps, accountId: string, projectId: string, key: string): Promise<HubWorkItem> {
  const { project, item, docs, history } = await loadItemDetail(deps, accountId, projectId, key);
  const detail = renderItemDetail(project.wm_prefix, item, docs, history);
  // renderItemDetail keeps the rows' order, one entry a row.
  return {
    ...detail,
    history: detail.history.map((h, i) => {
      const row = history[i]!;
      return h.kind === 'comment' ? { ...h, seq: row.seq, edited_at: row.edited_at === null ? null : iso(row.edited_at) } : { ...h, seq: row.seq };
    }),
  };
}
