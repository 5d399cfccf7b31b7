// The workflow builder's API: create a workflow from a definition, read and replace its
// definition, move its status, set its schedule (with a preview of the next times), copy it and
// delete it (admins), and test one of its blocks. The rules are the services' (src/services/workflows/manage.ts): a definition
// problem is 422 invalid_field whose param is the path inside the body (`blocks[2].config.prompt`)
// and whose message is the fixture validator's words; each change is audited there.
import { ApiError } from '../../domain/errors.js';
import { cronProblem, nextOccurrences, zoneWords } from '../../engine/schedules/cron.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { iso } from '../../lib/time.js';
import { exportDefinition } from '../../services/workflows/definition.js';
import {
  copyWorkflow,
  createWorkflow,
  deleteWorkflow,
  getWorkflowForEdit,
  replaceWorkflow,
  setWorkflowSchedule,
  setWorkflowStatus,
  type WorkflowRef,
} from '../../services/workflows/manage.js';
import type { WorkflowEditRow } from '../../services/workflows/store.js';
import { testBlock } from '../../services/workflows/test-block.js';
import { scheduleProblem } from '../../services/workflows/validate.js';
import { createBilling } from '../../engine/billing/index.js';
import { createLlmProvider, createWebFetcher } from '../../engine/providers/index.js';
import { actorOf, hubAuthOf, hubRoute, type HubAuth } from '../kit.js';
import {
  BLOCK_TESTS_PER_MINUTE,
  BlockTestBody,
  BlockTestParams,
  BlockTestResult,
  DefinitionBody,
  IdParams,
  MAX_TEST_INPUT_CHARS,
  PREVIEW_COUNT,
  PreviewQuery,
  ReplaceBody,
  ScheduleBody,
  SchedulePreview,
  StatusBody,
  WorkflowDeleted,
  WorkflowEditor,
} from './schemas.js';

const upcoming = (schedule: string | null, timezone: string): string[] =>
  schedule === null ? [] : nextOccurrences(schedule, timezone, new Date(), PREVIEW_COUNT).map(iso);

function renderEditor(w: WorkflowEditRow): WorkflowEditor {
  return {
    id: w.id,
    created_at: iso(w.created_at),
    updated_at: iso(w.updated_at),
    definition: exportDefinition(w),
    schedule_next: upcoming(w.schedule, w.schedule_timezone),
    project_name: w.project_name,
  };
}

const refOf = (auth: HubAuth, id: string): WorkflowRef => ({ workflowId: id, accountId: auth.accountId });

export function registerHubWorkflowBuilderRoutes(hub: App, deps: AppDeps): void {
  hub.post('/workflows', hubRoute('member', {
    operationId: 'hubCreateWorkflow',
    summary: 'Create a workflow from a definition',
    body: DefinitionBody,
    response: { 201: WorkflowEditor },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const row = await createWorkflow(deps.db, auth.accountId, request.body, actorOf(auth));
    return reply.code(201).send(renderEditor(row));
  });

  hub.get('/workflows/:id/definition', hubRoute('member', {
    operationId: 'hubGetWorkflowDefinition',
    summary: "A workflow's definition, for the builder",
    params: IdParams,
    response: { 200: WorkflowEditor },
  }), async (request) => renderEditor(await getWorkflowForEdit(deps.db, refOf(hubAuthOf(request), request.params.id))));

  hub.put('/workflows/:id/definition', hubRoute('member', {
    operationId: 'hubReplaceWorkflowDefinition',
    summary: "Replace a workflow's definition",
    description: 'The whole definition (fields left out take their defaults). Runs in flight keep the definition they started with.',
    params: IdParams,
    body: ReplaceBody,
    response: { 200: WorkflowEditor },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const { expected_updated_at, ...definition } = request.body;
    const ref = refOf(auth, request.params.id);
    return renderEditor(await replaceWorkflow(deps.db, ref, definition, actorOf(auth), expected_updated_at ?? null));
  });

  hub.post('/workflows/:id/status', hubRoute('member', {
    operationId: 'hubSetWorkflowStatus',
    summary: 'Draft, activate or pause a workflow',
    params: IdParams,
    body: StatusBody,
    response: { 200: WorkflowEditor },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return renderEditor(await setWorkflowStatus(deps.db, refOf(auth, request.params.id), request.body.status, actorOf(auth)));
  });

  hub.put('/workflows/:id/schedule', hubRoute('member', {
    operationId: 'hubSetWorkflowSchedule',
    summary: "Set or clear a workflow's schedule",
    description: '422 invalid_field param schedule when the cron expression or time zone cannot run.',
    params: IdParams,
    body: ScheduleBody,
    response: { 200: WorkflowEditor },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const { schedule, schedule_timezone } = request.body;
    const ref = refOf(auth, request.params.id);
    return renderEditor(await setWorkflowSchedule(deps.db, ref, { schedule, timezone: schedule_timezone }, actorOf(auth)));
  });

  hub.get('/schedule-preview', hubRoute('member', {
    operationId: 'hubPreviewSchedule',
    summary: 'The next five times a cron expression fires',
    description: '422 invalid_field param timezone (an unknown time zone) or cron (an expression that cannot run).',
    querystring: PreviewQuery,
    response: { 200: SchedulePreview },
  }), async (request) => {
    // Checked here rather than by the schema, so a missing one is named like a bad one (param cron).
    const cron = request.query.cron ?? '';
    const timezone = request.query.timezone ?? 'UTC';
    // The zone first, with an expression that always runs, so a bad zone is named as the zone.
    if (cronProblem('* * * * *', timezone)) throw new ApiError('invalid_field', zoneWords(timezone), { param: 'timezone' });
    const problem = request.query.cron === undefined ? 'missing (required)' : cron.trim() === '' ? 'must not be empty' : scheduleProblem(cron, timezone);
    if (problem) throw new ApiError('invalid_field', problem, { param: 'cron' });
    return { next: upcoming(cron, timezone), timezone };
  });

  // Test this block: the engine's block code on sample inputs, outside any run (src/services/workflows/test-block.ts).
  const testEnv = {
    db: deps.db,
    config: deps.config,
    providers: { llm: createLlmProvider(deps.config.llm), pages: deps.pages, fetchText: createWebFetcher(deps.config) },
    billing: createBilling(deps.db),
  };
  hub.post('/workflows/:id/blocks/:block/test', hubRoute('member', {
    operationId: 'hubTestWorkflowBlock',
    summary: 'Run one saved block on sample inputs, without starting a run',
    description:
      `The block's settings as being edited (config; left out: the saved ones) over the given texts of the blocks feeding it. Not billed with the development AI; a real AI provider's tokens are billed as AI usage. 422 invalid_field param block (no such saved block), inputs (over ${MAX_TEST_INPUT_CHARS} characters in all) or config.<field>; 429 block_tests_limited past ${BLOCK_TESTS_PER_MINUTE} tests a minute per account.`,
    params: BlockTestParams,
    body: BlockTestBody,
    response: { 200: BlockTestResult },
  }, [429]), async (request) => {
    const auth = hubAuthOf(request);
    const hit = await deps.counters.requests.hit(`block-test:${auth.accountId}`);
    if (hit.count > BLOCK_TESTS_PER_MINUTE) {
      const wait = String(Math.max(1, Math.ceil(hit.resetMs / 1000)));
      throw new ApiError('block_tests_limited', `Blocks were tested ${BLOCK_TESTS_PER_MINUTE} times in the last minute; try again in ${wait} s.`, { headers: { 'Retry-After': wait } });
    }
    const { config, inputs } = request.body;
    return testBlock(testEnv, { accountId: auth.accountId, workflowId: request.params.id, blockId: request.params.block, config, inputs }, MAX_TEST_INPUT_CHARS);
  });

  hub.post('/workflows/:id/copy', hubRoute('member', {
    operationId: 'hubCopyWorkflow',
    summary: 'Copy a workflow',
    description: 'The copy is a draft named "Copy of <name>", without a schedule.',
    params: IdParams,
    response: { 201: WorkflowEditor },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const row = await copyWorkflow(deps.db, refOf(auth, request.params.id), actorOf(auth));
    return reply.code(201).send(renderEditor(row));
  });

  hub.delete('/workflows/:id', hubRoute('admin', {
    operationId: 'hubDeleteWorkflow',
    summary: 'Delete a workflow (owners and admins)',
    description: 'It leaves every list and cannot be started; its schedule stops. Its runs stay readable; runs in flight finish.',
    params: IdParams,
    response: { 200: WorkflowDeleted },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const done = await deleteWorkflow(deps.db, refOf(auth, request.params.id), actorOf(auth));
    return { id: done.id, deleted: true as const };
  });
}
