// The workflow builder's API: create a workflow from a definition, read and replace its
// definition, move its status, set its schedule (with a preview of the next times), copy it and
// delete it (admins). The rules are the services' (src/services/workflows/manage.ts): a definition
// problem is 422 invalid_field whose param is the path inside the body (`blocks[2].config.prompt`)
// and whose message is the fixture validator's words; each change is audited there.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../domain/errors.js';
import { BLOCK_KINDS, WORKFLOW_STATUSES } from '../../domain/workflow.js';
import { cronProblem, nextOccurrences } from '../../engine/schedules/cron.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
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
import { scheduleProblem } from '../../services/workflows/validate.js';
import { actorOf, hubAccess, hubAuthOf, hubResponses, HUB_TAG, type HubAuth } from '../kit.js';

/** How many upcoming times a schedule preview lists. */
const PREVIEW_COUNT = 5;

const Block = Type.Object(
  { id: Type.String(), kind: StringEnum(BLOCK_KINDS), config: Type.Record(Type.String(), Type.Unknown()) },
  { title: 'WorkflowBlock' },
);
const Edge = Type.Object({ from: Type.String(), to: Type.String() }, { title: 'WorkflowEdge' });

const Definition = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    project_id: Nullable(Uuid),
    status: StringEnum(WORKFLOW_STATUSES),
    blocks: Type.Array(Block),
    edges: Type.Array(Edge),
    schedule: Nullable(Type.String({ description: 'A cron expression (5 fields, optional seconds).' })),
    schedule_timezone: Type.String({ description: 'An IANA time zone.' }),
  },
  { title: 'WorkflowDefinition' },
);

// The body's blocks and edges are checked by the definition's validator, not here: its refusal
// names the element at fault (`blocks[2].kind`), where a schema error could only say `blocks.kind`.
const definitionFields = {
  name: Type.Optional(Type.String({ description: 'Required.' })),
  description: Type.Optional(Type.String({ description: 'Default "".' })),
  project_id: Type.Optional(Nullable(Uuid)),
  status: Type.Optional(StringEnum(WORKFLOW_STATUSES, { description: 'Default draft.' })),
  blocks: Type.Optional(Type.Array(Type.Unknown({ description: 'A block {id, kind, config}, as WorkflowBlock.' }))),
  edges: Type.Optional(Type.Array(Type.Unknown({ description: 'An edge {from, to}, as WorkflowEdge.' }))),
  schedule: Type.Optional(Nullable(Type.String({ description: 'A cron expression; default null (none).' }))),
  schedule_timezone: Type.Optional(Type.String({ description: 'An IANA time zone; default UTC.' })),
};
const DefinitionBody = Type.Object(definitionFields, { additionalProperties: false, title: 'WorkflowDefinitionBody' });
const ReplaceBody = Type.Object(
  {
    ...definitionFields,
    expected_updated_at: Type.Optional({
      ...DateTime,
      description: 'The updated_at the edit started from: when the workflow changed since, 409 workflow_changed.',
    }),
  },
  { additionalProperties: false, title: 'WorkflowReplaceBody' },
);

export const WorkflowEditor = Type.Object(
  {
    id: Uuid,
    created_at: DateTime,
    updated_at: DateTime,
    definition: Definition,
    schedule_next: Type.Array(DateTime, { description: `The next ${PREVIEW_COUNT} scheduled times; empty without a schedule.` }),
    project_name: Nullable(Type.String()),
  },
  { title: 'WorkflowEditor' },
);

const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
const StatusBody = Type.Object({ status: StringEnum(WORKFLOW_STATUSES) }, { additionalProperties: false });
const ScheduleBody = Type.Object(
  { schedule: Nullable(Type.String()), schedule_timezone: Type.Optional(Type.String({ description: 'Left out: the current one.' })) },
  { additionalProperties: false },
);
const PreviewQuery = Type.Object(
  { cron: Type.Optional(Type.String({ description: 'Required: the cron expression (5 fields, optional seconds).' })), timezone: Type.Optional(Type.String({ description: 'An IANA time zone; default UTC.' })) },
  { additionalProperties: false },
);
const SchedulePreview = Type.Object({ next: Type.Array(DateTime), timezone: Type.String() }, { title: 'SchedulePreview' });
const Deleted = Type.Object({ id: Uuid, deleted: Type.Literal(true) }, { title: 'WorkflowDeleted' });

const upcoming = (schedule: string | null, timezone: string): string[] =>
  schedule === null ? [] : nextOccurrences(schedule, timezone, new Date(), PREVIEW_COUNT).map(iso);

function renderEditor(w: WorkflowEditRow): Static<typeof WorkflowEditor> {
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
  const route = { tags: [HUB_TAG] };

  hub.post(
    '/workflows',
    {
      schema: {
        ...route,
        operationId: 'hubCreateWorkflow',
        summary: 'Create a workflow from a definition',
        body: DefinitionBody,
        response: hubResponses('member', { 201: WorkflowEditor }),
      },
      config: hubAccess('member'),
    },
    async (request, reply) => {
      const auth = hubAuthOf(request);
      const row = await createWorkflow(deps.db, auth.accountId, request.body, actorOf(auth));
      return reply.code(201).send(renderEditor(row));
    },
  );

  hub.get(
    '/workflows/:id/definition',
    {
      schema: {
        ...route,
        operationId: 'hubGetWorkflowDefinition',
        summary: "A workflow's definition, for the builder",
        params: IdParams,
        response: hubResponses('member', { 200: WorkflowEditor }),
      },
      config: hubAccess('member'),
    },
    async (request) => renderEditor(await getWorkflowForEdit(deps.db, refOf(hubAuthOf(request), request.params.id))),
  );

  hub.put(
    '/workflows/:id/definition',
    {
      schema: {
        ...route,
        operationId: 'hubReplaceWorkflowDefinition',
        summary: "Replace a workflow's definition",
        description: 'The whole definition (fields left out take their defaults). Runs in flight keep the definition they started with.',
        params: IdParams,
        body: ReplaceBody,
        response: hubResponses('member', { 200: WorkflowEditor }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      const { expected_updated_at, ...definition } = request.body;
      const ref = refOf(auth, request.params.id);
      return renderEditor(await replaceWorkflow(deps.db, ref, definition, actorOf(auth), expected_updated_at ?? null));
    },
  );

  hub.post(
    '/workflows/:id/status',
    {
      schema: {
        ...route,
        operationId: 'hubSetWorkflowStatus',
        summary: 'Draft, activate or pause a workflow',
        params: IdParams,
        body: StatusBody,
        response: hubResponses('member', { 200: WorkflowEditor }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      return renderEditor(await setWorkflowStatus(deps.db, refOf(auth, request.params.id), request.body.status, actorOf(auth)));
    },
  );

  hub.put(
    '/workflows/:id/schedule',
    {
      schema: {
        ...route,
        operationId: 'hubSetWorkflowSchedule',
        summary: "Set or clear a workflow's schedule",
        description: '422 invalid_field param schedule when the cron expression or time zone cannot run.',
        params: IdParams,
        body: ScheduleBody,
        response: hubResponses('member', { 200: WorkflowEditor }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      const { schedule, schedule_timezone } = request.body;
      const ref = refOf(auth, request.params.id);
      return renderEditor(await setWorkflowSchedule(deps.db, ref, { schedule, timezone: schedule_timezone }, actorOf(auth)));
    },
  );

  hub.get(
    '/schedule-preview',
    {
      schema: {
        ...route,
        operationId: 'hubPreviewSchedule',
        summary: 'The next five times a cron expression fires',
        description: '422 invalid_field param timezone (an unknown time zone) or cron (an expression that cannot run).',
        querystring: PreviewQuery,
        response: hubResponses('member', { 200: SchedulePreview }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      // Checked here rather than by the schema, so a missing one is named like a bad one (param cron).
      const cron = request.query.cron ?? '';
      const timezone = request.query.timezone ?? 'UTC';
      // The zone first, with an expression that always runs: the words are the cron library's.
      const badZone = cronProblem('* * * * *', timezone);
      if (badZone) throw new ApiError('invalid_field', badZone, { param: 'timezone' });
      const problem = request.query.cron === undefined ? 'missing (required)' : cron.trim() === '' ? 'must not be empty' : scheduleProblem(cron, timezone);
      if (problem) throw new ApiError('invalid_field', problem, { param: 'cron' });
      return { next: upcoming(cron, timezone), timezone };
    },
  );

  hub.post(
    '/workflows/:id/copy',
    {
      schema: {
        ...route,
        operationId: 'hubCopyWorkflow',
        summary: 'Copy a workflow',
        description: 'The copy is a draft named "Copy of <name>", without a schedule.',
        params: IdParams,
        response: hubResponses('member', { 201: WorkflowEditor }),
      },
      config: hubAccess('member'),
    },
    async (request, reply) => {
      const auth = hubAuthOf(request);
      const row = await copyWorkflow(deps.db, refOf(auth, request.params.id), actorOf(auth));
      return reply.code(201).send(renderEditor(row));
    },
  );

  hub.delete(
    '/workflows/:id',
    {
      schema: {
        ...route,
        operationId: 'hubDeleteWorkflow',
        summary: 'Delete a workflow (owners and admins)',
        description: 'It leaves every list and cannot be started; its schedule stops. Its runs stay readable; runs in flight finish.',
        params: IdParams,
        response: hubResponses('admin', { 200: Deleted }),
      },
      config: hubAccess('admin'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      const done = await deleteWorkflow(deps.db, refOf(auth, request.params.id), actorOf(auth));
      return { id: done.id, deleted: true as const };
    },
  );
}
