// The hub's workflow shapes: a workflow in the list (/v1's with its project and block count), a
// workflow's page (blocks, recent runs), and the builder's definition, editor and bodies. Pure:
// TypeBox, src/domain and other schema modules only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { BLOCK_KINDS, WORKFLOW_STATUSES } from '../../domain/workflow.js';
import { ListWorkflowsQuery, Workflow } from '../../api/workflows/schemas.js';
import { DateTime, NameSearch, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { HubRunInList } from '../runs/schemas.js';

/** How many of a workflow's runs its page shows; the Runs screen filtered by it has them all. */
export const RECENT_RUNS = 10;

/** /v1's list filters and the hub's name search (the pickers'). */
export const HubListWorkflowsQuery = Type.Object({ ...ListWorkflowsQuery.properties, q: NameSearch('name') }, { additionalProperties: false });
export type HubListWorkflowsQuery = Static<typeof HubListWorkflowsQuery>;

const hubFields = {
  ...Workflow.properties,
  project_name: Nullable(Type.String()),
  block_count: Type.Integer(),
};
export const HubWorkflowInList = Type.Object(hubFields, { title: 'HubWorkflowInList' });
export type HubWorkflowInList = Static<typeof HubWorkflowInList>;

/** A block on a workflow's page (no title: inline in HubWorkflowDetail's document). */
export const HubWorkflowBlock = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  config: Type.Record(Type.String(), Type.Unknown()),
  inputs: Type.Array(Type.String(), { description: 'The blocks feeding this one (edges into it).' }),
});
export type HubWorkflowBlock = Static<typeof HubWorkflowBlock>;
export const HubWorkflowDetail = Type.Object(
  {
    ...hubFields,
    schedule: Nullable(Type.String()),
    blocks: Type.Array(HubWorkflowBlock, { description: 'In the order the workflow lists them.' }),
    recent_runs: Type.Array(HubRunInList, { description: `The newest ${RECENT_RUNS} runs.` }),
    more_runs: Type.Boolean({ description: 'More runs exist than recent_runs shows.' }),
  },
  { title: 'HubWorkflowDetail' },
);
export type HubWorkflowDetail = Static<typeof HubWorkflowDetail>;

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

/** How many upcoming times a schedule preview lists. */
export const PREVIEW_COUNT = 5;

export const WorkflowBlock = Type.Object(
  { id: Type.String(), kind: StringEnum(BLOCK_KINDS), config: Type.Record(Type.String(), Type.Unknown()) },
  { title: 'WorkflowBlock' },
);
export type WorkflowBlock = Static<typeof WorkflowBlock>;
export const WorkflowEdge = Type.Object({ from: Type.String(), to: Type.String() }, { title: 'WorkflowEdge' });
export type WorkflowEdge = Static<typeof WorkflowEdge>;

export const WorkflowDefinition = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    project_id: Nullable(Uuid),
    status: StringEnum(WORKFLOW_STATUSES),
    blocks: Type.Array(WorkflowBlock),
    edges: Type.Array(WorkflowEdge),
    schedule: Nullable(Type.String({ description: 'A cron expression (5 fields, optional seconds).' })),
    schedule_timezone: Type.String({ description: 'An IANA time zone.' }),
  },
  { title: 'WorkflowDefinition' },
);
export type WorkflowDefinition = Static<typeof WorkflowDefinition>;

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
export const DefinitionBody = Type.Object(definitionFields, { additionalProperties: false, title: 'WorkflowDefinitionBody' });
export type DefinitionBody = Static<typeof DefinitionBody>;
export const ReplaceBody = Type.Object(
  {
    ...definitionFields,
    expected_updated_at: Type.Optional({
      ...DateTime,
      description: 'The updated_at the edit started from: when the workflow changed since, 409 workflow_changed.',
    }),
  },
  { additionalProperties: false, title: 'WorkflowReplaceBody' },
);
export type ReplaceBody = Static<typeof ReplaceBody>;

export const WorkflowEditor = Type.Object(
  {
    id: Uuid,
    created_at: DateTime,
    updated_at: DateTime,
    definition: WorkflowDefinition,
    schedule_next: Type.Array(DateTime, { description: `The next ${PREVIEW_COUNT} scheduled times; empty without a schedule.` }),
    project_name: Nullable(Type.String()),
  },
  { title: 'WorkflowEditor' },
);
export type WorkflowEditor = Static<typeof WorkflowEditor>;

export const StatusBody = Type.Object({ status: StringEnum(WORKFLOW_STATUSES) }, { additionalProperties: false });
export type StatusBody = Static<typeof StatusBody>;
export const ScheduleBody = Type.Object(
  { schedule: Nullable(Type.String()), schedule_timezone: Type.Optional(Type.String({ description: 'Left out: the current one.' })) },
  { additionalProperties: false },
);
export type ScheduleBody = Static<typeof ScheduleBody>;
export const PreviewQuery = Type.Object(
  { cron: Type.Optional(Type.String({ description: 'Required: the cron expression (5 fields, optional seconds).' })), timezone: Type.Optional(Type.String({ description: 'An IANA time zone; default UTC.' })) },
  { additionalProperties: false },
);
export type PreviewQuery = Static<typeof PreviewQuery>;
export const SchedulePreview = Type.Object({ next: Type.Array(DateTime), timezone: Type.String() }, { title: 'SchedulePreview' });
export type SchedulePreview = Static<typeof SchedulePreview>;
export const WorkflowDeleted = Type.Object({ id: Uuid, deleted: Type.Literal(true) }, { title: 'WorkflowDeleted' });
export type WorkflowDeleted = Static<typeof WorkflowDeleted>;

/** What "Test this block" may carry: a few feeding blocks' texts, 100,000 characters in all. */
export const MAX_TEST_INPUTS = 20;
export const MAX_TEST_INPUT_CHARS = 100_000;
/** Tests per account per minute. */
export const BLOCK_TESTS_PER_MINUTE = 30;

export const BlockTestParams = Type.Object({ id: Uuid, block: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type BlockTestParams = Static<typeof BlockTestParams>;
export const BlockTestBody = Type.Object(
  {
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "The block's settings as being edited; left out: the saved ones." })),
    inputs: Type.Record(Type.String(), Type.String(), {
      maxProperties: MAX_TEST_INPUTS,
      description: `The text of each feeding block, by block id (its last run's output, or sample text): at most ${MAX_TEST_INPUTS}, ${MAX_TEST_INPUT_CHARS} characters in all.`,
    }),
  },
  { additionalProperties: false, title: 'BlockTestBody' },
);
export type BlockTestBody = Static<typeof BlockTestBody>;
export const BlockTestResult = Type.Object(
  {
    status: StringEnum(['succeeded', 'failed'] as const),
    output: Nullable(Type.Object({ text: Type.String(), html: Nullable(Type.String()) })),
    error: Nullable(Type.String({ description: 'Why the block failed, in words for a person.' })),
    note: Nullable(Type.String({ description: 'What a real run would do that the test did not (approve, save a page).' })),
    billed_micros: Type.Integer({ description: 'What the test cost as AI usage: 0 with the development AI.' }),
    development_ai: Type.Boolean({ description: 'The development (local) AI answered: nothing is billed.' }),
  },
  { title: 'BlockTestResult' },
);
export type BlockTestResult = Static<typeof BlockTestResult>;
