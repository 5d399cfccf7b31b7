// Workflows in the hub (read side; the builder is part 2): the list with status, project and last
// run, and one workflow with its blocks in order, its edges and its most recent runs, each
// screen in one request. "Run now" is POST /workflows/{id}/runs (hub/runs/routes.ts).
import { renderWorkflow } from '../../api/workflows/render.js';
import { found } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import { listByTime, searchText } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { hubAuthOf, hubList, hubRoute } from '../kit.js';
import { renderHubRun } from '../runs/detail.js';
import { listAccountRuns } from '../../services/runs/read-store.js';
import { getHubWorkflow, listHubWorkflows, type HubWorkflowRow } from './store.js';
import { HubListWorkflowsQuery, HubWorkflowBlock, HubWorkflowDetail, HubWorkflowInList, IdParams, RECENT_RUNS } from './schemas.js';

function renderHubWorkflow(r: HubWorkflowRow): HubWorkflowInList {
  return { ...renderWorkflow(r), project_name: r.project_name, block_count: Number(r.block_count) };
}

type RawBlock = { id?: unknown; kind?: unknown; config?: unknown };

function blocksInOrder(blocks: unknown, edges: unknown): HubWorkflowBlock[] {
  const list = Array.isArray(blocks) ? (blocks as RawBlock[]) : [];
  const links = Array.isArray(edges) ? (edges as { from?: unknown; to?: unknown }[]) : [];
  return list.map((b) => ({
    id: String(b.id),
    kind: String(b.kind),
    config: b.config && typeof b.config === 'object' ? (b.config as Record<string, unknown>) : {},
    inputs: links.filter((e) => e.to === b.id).map((e) => String(e.from)),
  }));
}

export function registerHubWorkflowRoutes(hub: App, deps: AppDeps): void {
  hubList(hub, '/workflows', 'member', {
    operationId: 'hubListWorkflows',
    summary: 'Workflows, most recently updated first, with project and last run',
    querystring: HubListWorkflowsQuery,
    item: HubWorkflowInList,
    title: 'HubWorkflowList',
    lister: listByTime(deps.cursors, (r: HubWorkflowRow) => r.updated_at),
    filters: (q) => ({ status: q.status, project_id: q.project_id, q: searchText(q.q) }),
    read: (page, q) => listHubWorkflows(deps.db, page.accountId, { status: q.status, projectId: q.project_id, search: searchText(q.q) }, page),
    render: renderHubWorkflow,
  });

  hub.get('/workflows/:id', hubRoute('member', {
    operationId: 'hubGetWorkflow',
    summary: 'A workflow with its blocks in order and its recent runs',
    params: IdParams,
    response: { 200: HubWorkflowDetail },
  }), async (request) => {
    const accountId = hubAuthOf(request).accountId;
    const row = found(await getHubWorkflow(deps.db, accountId, request.params.id), 'workflow');
    const runs = await listAccountRuns(deps.db, accountId, { workflowId: row.id }, { after: null, fetch: RECENT_RUNS + 1 });
    return {
      ...renderHubWorkflow(row),
      schedule: row.schedule,
      blocks: blocksInOrder(row.blocks, row.edges),
      recent_runs: runs.slice(0, RECENT_RUNS).map(renderHubRun),
      more_runs: runs.length > RECENT_RUNS,
    };
  });
}
