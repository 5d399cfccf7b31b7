// Runs in the hub: every run of the account (filters in the query, /v1's cursors), how many await
// approval (the navigation's badge), one run with its timeline, each block's output and what an
// approval waits on; "Run now" on a workflow, "Run again" (a retry) on a run, and the approve (optionally
// with the draft edited) / reject (optionally with a reason) / cancel moves, each through the
// runs service with its audit entry.
import { found } from '../../domain/errors.js';
import { StartedRun } from '../../api/runs/schemas.js';
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import { optionalBody } from '../../http/route.js';
import type { App } from '../../http/route-kit.js';
import { iso } from '../../lib/time.js';
import { moveRun, retryRun, startRunAsUser, type RunMove } from '../../services/runs/by-user.js';
import { actorOf, hubAuthOf, hubList, hubRoute } from '../kit.js';
import { renderHubRun, renderRunDetail } from './detail.js';
import { ApproveBody, AwaitingCount, EmptyBody, HubRunDetail, HubRunInList, IdParams, ListRunsQuery, RejectBody } from './schemas.js';
import { countAwaitingApproval, listAccountRuns, type AccountRunRow } from '../../services/runs/read-store.js';

const MOVES = {
  approve: { summary: 'Approve a run awaiting approval (it continues from its approval block, with the edited text when one is given)', body: ApproveBody },
  reject: { summary: 'Reject a run awaiting approval, optionally saying why (it ends rejected)', body: RejectBody },
  cancel: { summary: 'Cancel a queued, running or awaiting run', body: EmptyBody },
} satisfies Record<RunMove, unknown>;

const started = (r: { id: string; workflow_id: string; status: string; trigger: string; created_at: Date }) =>
  ({ id: r.id, workflow_id: r.workflow_id, status: r.status, trigger: r.trigger, created_at: iso(r.created_at) });

export function registerHubRunRoutes(hub: App, deps: AppDeps): void {
  hubList(hub, '/runs', 'member', {
    operationId: 'hubListRuns',
    summary: 'Every run of the account, newest first',
    querystring: ListRunsQuery,
    item: HubRunInList,
    title: 'HubRunList',
    lister: listByTime(deps.cursors, (r: AccountRunRow) => r.created_at),
    filters: (q) => ({ workflow_id: q.workflow_id, status: q.status, trigger: q.trigger }),
    read: (page, q) => listAccountRuns(deps.db, page.accountId, { workflowId: q.workflow_id, status: q.status, trigger: q.trigger }, page),
    render: renderHubRun,
  });

  hub.get('/runs/awaiting', hubRoute('member', {
    operationId: 'hubCountRunsAwaiting',
    summary: 'How many runs await approval (the navigation polls it)',
    response: { 200: AwaitingCount },
  }), async (request) => ({ awaiting_approval: await countAwaitingApproval(deps.db, hubAuthOf(request).accountId) }));

  hub.get('/runs/:id', hubRoute('member', {
    operationId: 'hubGetRun',
    summary: 'A run: its steps with their outputs, and what an approval waits on',
    params: IdParams,
    response: { 200: HubRunDetail },
  }), async (request) => {
    return found(await renderRunDetail(deps.db, hubAuthOf(request).accountId, request.params.id), 'run');
  });

  hub.post('/workflows/:id/runs', hubRoute('member', {
    operationId: 'hubStartRun',
    summary: 'Run now: start a manual run of the workflow',
    description: 'Checks the workflow and the account\'s credit as the API\'s start does; the API\'s run limits count API runs only.',
    params: IdParams,
    body: optionalBody(EmptyBody),
    response: { 202: StartedRun },
  }, [402]), async (request, reply) => {
    const auth = hubAuthOf(request);
    const r = await startRunAsUser(deps.db, { accountId: auth.accountId, workflowId: request.params.id, actor: actorOf(auth) });
    return reply.code(202).send(started(r));
  });

  hub.post('/runs/:id/retry', hubRoute('member', {
    operationId: 'hubRetryRun',
    summary: 'Run again: retry a run that failed, stopped, was cancelled or rejected',
    description:
      'A new manual run of the same workflow with the same definition (the run\'s own blocks and edges) and the same input ' +
      '(runs take none), naming this run (retry_of). For a failed, partial, cancelled or rejected run whose workflow still ' +
      'exists, else 409 run_cannot_run_again; then the checks of any manual start (402, 422).',
    params: IdParams,
    body: optionalBody(EmptyBody),
    response: { 202: StartedRun },
  }, [402]), async (request, reply) => {
    const auth = hubAuthOf(request);
    return reply.code(202).send(started(await retryRun(deps.db, { accountId: auth.accountId, runId: request.params.id, actor: actorOf(auth) })));
  });

  for (const move of ['approve', 'reject', 'cancel'] as const) {
    hub.post(
      `/runs/:id/${move}`,
      hubRoute('member', {
        operationId: `hub${move.charAt(0).toUpperCase()}${move.slice(1)}Run`,
        summary: MOVES[move].summary,
        params: IdParams,
        body: optionalBody(MOVES[move].body),
        response: { 200: HubRunDetail },
      }),
      async (request) => {
        const auth = hubAuthOf(request);
        const body: Partial<ApproveBody & RejectBody> = request.body ?? {};
        await moveRun(deps.db, { accountId: auth.accountId, runId: request.params.id, move, actor: actorOf(auth), text: body.text, reason: body.reason });
        return found(await renderRunDetail(deps.db, auth.accountId, request.params.id), 'run');
      },
    );
  }
}

