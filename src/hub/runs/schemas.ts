// The hub's run shapes: a run in the list, and a run with its timeline, outputs and approval;
// the list's query and the moves' empty body. Pure: TypeBox, src/domain and the shared schemas
// only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { MAX_APPROVED_TEXT, MAX_REJECT_REASON, RUN_STATUSES, RUN_STEP_STATUSES, RUN_TRIGGERS } from '../../domain/workflow.js';
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

/** What was decided on an approval step: by whom, when, and the edit or the reason. */
export const HubRunDecision = Type.Object({
  outcome: StringEnum(['approved', 'rejected'] as const),
  decided_by: Nullable(Type.String({ description: 'The person who decided (null: the operator, or a user since removed).' })),
  decided_at: DateTime,
  original_text: Nullable(Type.String({ description: 'Set when the approver edited the draft: the draft as it was (the step\'s output holds the edited text).' })),
  reason: Nullable(Type.String({ description: 'The reason given for a rejection, if any.' })),
});
export type HubRunDecision = Static<typeof HubRunDecision>;

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
  decision: Nullable(HubRunDecision),
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
    work_ms: Type.Integer({ description: "The blocks' own time: the sum of the steps' times (waits for approval are not a step's time)." }),
    approval_wait_ms: Nullable(Type.Integer({ description: 'Time spent waiting for approval (so far, while it waits); null when the run met no approval.' })),
    made: Type.Array(
      Type.Object({
        node_id: Type.String({ description: 'The block that made it.' }),
        item_id: Uuid,
        kind: Type.String({ description: 'The content item\'s kind (page).' }),
        title: Nullable(Type.String({ description: 'null when the item has been deleted since.' })),
      }),
      { description: 'What the run made: each content item its blocks created, to link to.' },
    ),
    retry_of: Nullable(Type.String({ format: 'uuid', description: 'The run this one retries ("Run again"): it runs that run\'s blocks and edges.' })),
    latest_retry: Nullable(Type.String({ format: 'uuid', description: 'The newest retry of this run.' })),
    can_retry: Type.Boolean({ description: 'Failed, partial, cancelled or rejected, and its workflow still exists: "Run again" retries it.' }),
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

export const ApproveBody = Type.Object(
  {
    text: Type.Optional(
      Type.String({ maxLength: MAX_APPROVED_TEXT, description: 'The draft as the approver edited it: the run goes on with this text. Omit to approve it as it stands.' }),
    ),
  },
  { additionalProperties: false, title: 'HubApproveBody' },
);
export type ApproveBody = Static<typeof ApproveBody>;

export const RejectBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: MAX_REJECT_REASON, description: 'Why it was rejected; shown on the run page.' })) },
  { additionalProperties: false, title: 'HubRejectBody' },
);
export type RejectBody = Static<typeof RejectBody>;

export const AwaitingCount = Type.Object(
  { awaiting_approval: Type.Integer({ description: 'Runs of the account awaiting approval now.' }) },
  { title: 'HubRunsAwaiting' },
);
export type AwaitingCount = Static<typeof AwaitingCount>;
