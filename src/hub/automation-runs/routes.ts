// An automation run's page in the hub (issue 25, item 4): /v1's run detail with what a person
// reads there — the automation's name, each step's type and deed in words (words.ts) and the
// messages it queued, each linking to its message page. The builder's test panel polls the same
// route. Another account's run is a 404. The stop is the automations area's (automations/routes.ts).
import { found } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { automationRunDetail } from '../../api/automation-runs/render.js';
import { runDefinition } from '../../services/automation-runs/read-store.js';
import { hubAuthOf, hubRoute } from '../kit.js';
import { messagesOfRun, type RunMessageRow } from '../messages/store.js';
import { IdParams } from '../automations/schemas.js';
import { HubAutomationRunDetail, type HubRunStep } from './schemas.js';
import { stepDid, stepTypeLabel } from './words.js';

export function registerHubAutomationRunRoutes(hub: App, deps: AppDeps): void {
  hub.get('/automation-runs/:id', hubRoute('member', {
    operationId: 'hubGetAutomationRun',
    summary: 'An automation run with its steps in words',
    description:
      "/v1's automation run detail, with the automation's name, and for each step its type and what it did in words and the " +
      'messages it queued (their subjects only in those words; bodies never). The builder’s test panel polls it too.',
    params: IdParams,
    response: { 200: HubAutomationRunDetail },
  }), async (request) => {
    const accountId = hubAuthOf(request).accountId;
    const id = request.params.id;
    const [definition, messages] = await Promise.all([runDefinition(deps.db, accountId, id), messagesOfRun(deps.db, accountId, id)]);
    const byStep = new Map<string, RunMessageRow[]>();
    for (const m of messages) byStep.set(m.step_id, [...(byStep.get(m.step_id) ?? []), m]);
    const configs = new Map((definition?.steps ?? []).map((s) => [s.id, s.config ?? {}]));
    const detail = found(
      await automationRunDetail(deps.db, accountId, id, (step, row): HubRunStep => {
        const sent = byStep.get(step.step_id) ?? [];
        const did = stepDid({
          type: step.type,
          name: step.name,
          status: step.status,
          config: configs.get(step.step_id) ?? {},
          output: row?.output ?? null,
          messages: sent,
        });
        return { ...step, type_label: stepTypeLabel(step.type), did, messages: sent.map(({ id: mid, channel, status }) => ({ id: mid, channel, status })) };
      }),
      'automation run',
    );
    return { ...detail, automation: { id: detail.automation_id, name: definition?.automation_name ?? '' } };
  });
}
