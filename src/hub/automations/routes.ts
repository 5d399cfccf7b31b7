// Automations in the hub (read side until the builder): the list with /v1's summary (status,
// version, counters), an automation's page with its runs per contact in Run history's words, and
// the moves the operator's commands make: publish the draft, pause, resume, and stop a contact's
// run. The rules are the services' (src/services/automations, src/services/automation-runs);
// their refusals carry their catalogue codes (answered by src/http/error-handler.ts), and each move is audited in its own transaction.
import { found, notFound } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import { listByTime } from '../../http/list.js';
import type { App } from '../../http/route-kit.js';
import { getAutomation, listAutomations, type AutomationRow } from '../../services/automations/read-store.js';
import { Automation, ListAutomationsQuery } from '../../api/automations/schemas.js';
import { renderAutomation } from '../../api/automations/summary.js';
import { renderRun } from '../../api/automation-runs/render.js';
import { AutomationRun } from '../../api/automation-runs/schemas.js';
import { getAutomationRun, listAutomationRuns, type AutomationRunRow } from '../../services/automation-runs/read-store.js';
import { stopRun, STOPPED_IN_HUB } from '../../services/automation-runs/service.js';
import { moveAutomation, publishAutomation } from '../../services/automations/service.js';
import { actorOf, hubAuthOf, hubList, hubRoute } from '../kit.js';
import { DetailQuery, HubAutomationDetail, IdParams } from './schemas.js';

export function registerHubAutomationRoutes(hub: App, deps: AppDeps): void {
  const runs = listByTime(deps.cursors, (r: AutomationRunRow) => r.started_at);

  hubList(hub, '/automations', 'member', {
    operationId: 'hubListAutomations',
    summary: 'List automations',
    description: "/v1's summary: status, version, counters; most recently changed first.",
    querystring: ListAutomationsQuery,
    item: Automation,
    title: 'HubAutomationList',
    lister: listByTime(deps.cursors, (r: AutomationRow) => r.updated_at),
    filters: ({ status, project_id }) => ({ status, project_id }),
    read: (page, { status, project_id }) => listAutomations(deps.db, page.accountId, { status, projectId: project_id }, page),
    render: renderAutomation,
  });

  hub.get('/automations/:id', hubRoute('member', {
    operationId: 'hubGetAutomation',
    summary: "An automation's page: its summary and its runs per contact",
    params: IdParams,
    querystring: DetailQuery,
    response: { 200: HubAutomationDetail },
  }), async (request) => {
    const id = request.params.id;
    const status = request.query.status;
    const page = runs.start(request, request.query, { automation_id: id, status }, hubAuthOf(request).accountId);
    const [row, rows] = await Promise.all([getAutomation(deps.db, page.accountId, id), listAutomationRuns(deps.db, page.accountId, id, status, page)]);
    if (!row) throw notFound('automation');
    return { automation: renderAutomation(row), runs: runs.page(page, rows, renderRun) };
  });

  const move = (path: 'publish' | 'pause' | 'resume', summary: string, description: string) =>
    hub.post(
      `/automations/:id/${path}`,
      hubRoute('member', {
        operationId: `hub${path.charAt(0).toUpperCase()}${path.slice(1)}Automation`,
        summary,
        description,
        params: IdParams,
        response: { 200: Automation },
      }),
      async (request) => {
        const auth = hubAuthOf(request);
        const ref = { automationId: request.params.id, accountId: auth.accountId };
        if (path === 'publish') await publishAutomation(deps.db, ref, actorOf(auth));
        else await moveAutomation(deps.db, path, ref, actorOf(auth));
        return renderAutomation(found(await getAutomation(deps.db, auth.accountId, ref.automationId), 'automation'));
      },
    );
  move(
    'publish',
    'Publish the draft',
    'The draft becomes the next version that runs (recorded as published by the signed-in person); a paused automation stays paused. ' +
      '422 automation_not_publishable without a trigger type or steps, or with a problem (a step config, the schedule, the Run-only-if ' +
      'filter; param is its path, as in the editor’s problems); 409 automation_status_conflict when the draft has no unpublished changes.',
  );
  move('pause', 'Pause', 'Published → paused: it takes no enrollments and its waiting runs are held. 409 automation_status_conflict otherwise.');
  move('resume', 'Resume', 'Paused → published: held runs carry on. 409 automation_status_conflict otherwise.');

  hub.post('/automation-runs/:id/stop', hubRoute('member', {
    operationId: 'hubStopAutomationRun',
    summary: "Stop a contact's automation run",
    description: `A running or waiting run ends stopped with the error "${STOPPED_IN_HUB}"; 409 automation_run_not_active when it already ended.`,
    params: IdParams,
    response: { 200: AutomationRun },
  }), async (request) => {
    const auth = hubAuthOf(request);
    await stopRun(deps.db, request.params.id, auth.accountId, STOPPED_IN_HUB, actorOf(auth));
    return renderRun(found(await getAutomationRun(deps.db, auth.accountId, request.params.id), 'automation run'));
  });
}
