// Sprint planning in the hub (issue 27): members create a sprint, edit its plan while planned,
// start it (one active sprint a project) and finish it with a review that sends the unfinished
// items to a planned sprint or the backlog. Members plan, not only owners and admins: planning is
// the team's daily work, as creating and editing items is. Another account's project or sprint is
// 404 like an unknown one. The services (services/workmgmt/sprints.ts) hold every rule.
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { ProjectParams } from '../../api/workmgmt/schemas.js';
import { renderSprint } from '../../api/workmgmt/render.js';
import type { SprintRow } from '../../services/workmgmt/read-store.js';
import { createSprint, editSprint, finishSprint, startSprint } from '../../services/workmgmt/sprints.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { CreateSprintBody, EditSprintBody, FinishSprintBody, HubSprint, SprintParams } from './sprint-schemas.js';

const SPRINTS = '/workmgmt/projects/:project_id/sprints';

/** A sprint as the hub shows it: /v1's rendering and its goal. */
export const hubSprint = (s: SprintRow): HubSprint => ({ ...renderSprint(s), goal: s.goal });

export function registerHubSprintRoutes(hub: App, deps: AppDeps): void {
  hub.post(SPRINTS, hubRoute('member', {
    operationId: 'hubCreateSprint',
    summary: 'Plan a sprint',
    description: 'A new planned sprint with a name, a goal and dates (the end not before the start).',
    params: ProjectParams,
    body: CreateSprintBody,
    response: { 201: HubSprint },
  }), async (request, reply) => {
    const { accountId } = hubAuthOf(request);
    return reply.code(201).send(hubSprint(await createSprint(deps.db, accountId, request.params.project_id, request.body)));
  });

  hub.patch(`${SPRINTS}/:sprint_id`, hubRoute('member', {
    operationId: 'hubEditSprint',
    summary: "Change a planned sprint's plan",
    description: 'The fields sent change. Once started, a sprint keeps its plan: 409 sprint_state_conflict.',
    params: SprintParams,
    body: EditSprintBody,
    response: { 200: HubSprint },
  }), async (request) => {
    const { accountId } = hubAuthOf(request);
    return hubSprint(await editSprint(deps.db, accountId, request.params.project_id, request.params.sprint_id, request.body));
  });

  hub.post(`${SPRINTS}/:sprint_id/start`, hubRoute('member', {
    operationId: 'hubStartSprint',
    summary: 'Start a sprint',
    description: 'planned → active. A project has one active sprint at a time: while another is, 409 sprint_state_conflict (resource_id: it).',
    params: SprintParams,
    response: { 200: HubSprint },
  }), async (request) => {
    const { accountId } = hubAuthOf(request);
    return hubSprint(await startSprint(deps.db, accountId, request.params.project_id, request.params.sprint_id));
  });

  hub.post(`${SPRINTS}/:sprint_id/finish`, hubRoute('member', {
    operationId: 'hubFinishSprint',
    summary: 'Finish a sprint with its review',
    description:
      'active → finished. The items not done move to the planned sprint named (or the backlog), each with a history entry; ' +
      'the review (done vs not done, in items and points, and where the rest went) is what /v1 then reads.',
    params: SprintParams,
    body: FinishSprintBody,
    response: { 200: HubSprint },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const { project_id, sprint_id } = request.params;
    return hubSprint(await finishSprint(deps.db, auth.accountId, project_id, sprint_id, request.body, actorOf(auth)));
  });
}
