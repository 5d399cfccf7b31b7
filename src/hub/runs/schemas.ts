// The hub's run shapes: a run in the list, and a run with its timeline, outputs and approval;
// the list's query and the moves' empty body. Pure: TypeBox, src/domain and the shared schemas
// only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { RUN_STATUSES, RUN_STEP_STATUSES, RUN_TRIGGERS } from '../../domain/workflow.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

const runFields = {
  id: Uuid,
  workflow_id: Uuid,
  workflow_name: Type.String(),
  status: StringEnum(RUN_STATUSES),
  trigger: StringEnum(RUN_TRIGGERS),
  summary: Type.String({ description: 'One line on how it went.' }),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
  duration_ms: Nullable(Type.Integer({ description: 'The run\'s own time (waits for approval left out); null before it starts.' })),
};
export const HubRunInList = Type.Object(runFields, { title: 'HubRunInList' });

export type HubRunInList = Static<typeof HubRunInList>;

export const Output = Type.Object(
  {
    text: Type.String(),
    html: Nullable(Type.String({ description: 'Set when the output is an HTML document or a page the block made: show it sandboxed.' })),
    item_id: Nullable(Uuid),
  },
  { title: 'HubBlockOutput' },
);
export type Output = Static<typeof Output>;

/** One block's step on the run's timeline (no title: inline in HubRunDetail's document). */
export const HubRunStep = Type.Object({
  node_id: Type.String(),
  node_kind: Type.String(),
  status: StringEnum(RUN_STEP_STATUSES),
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
  ms: Type.Integer(),
  error: Nullable(Type.String()),
  output: Nullable(Output),
  development_ai: Type.Boolean({ description: 'Its output was written by the development LLM (local): it echoes its input; no model was called.' }),
});
export type HubRunStep = Static<typeof HubRunStep>;

export const HubRunDetail = Type.Object(
  {
    ...HubRunInList.properties,
    final: Type.Boolean({ description: 'true once the status can no longer change.' }),
    billed_micros: Type.Integer(),
    started_by: Nullable(Type.String({ description: 'The person who started it by hand, if one did.' })),
    steps: Type.Array(HubRunStep, { description: 'One per block, in the order they ran.' }),
    approval: Nullable(
      Type.Object({
        node_id: Type.String(),
        message: Type.String({ description: "The approval block's message; may be empty." }),
        output: Output,
      }, { description: 'Set while the run awaits approval: the output to approve.' }),
    ),
  },
  { title: 'HubRunDetail' },
);
export type HubRunDetail = Static<typeof HubRunDetail>;

export const ListRunsQuery = Type.Object(
  {
    ...ListQuery,
    workflow_id: Type.Optional(Uuid),
    status: Type.Optional(StringEnum(RUN_STATUSES)),
    trigger: Type.Optional(StringEnum(RUN_TRIGGERS)),
  },
  { additionalProperties: false },
);
export type ListRunsQuery = Static<typeof ListRunsQuery>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
export const EmptyBody = Type.Object({}, { additionalProperties: false, description: 'Empty, or {}.' });
export type EmptyBody = Static<typeof EmptyBody>;
