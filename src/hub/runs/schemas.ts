// The hub's run shapes: a run in the list, and a run with its timeline, outputs and approval.
import { Type, type Static } from '@sinclair/typebox';
import { RUN_STATUSES, RUN_STEP_STATUSES, RUN_TRIGGERS } from '../../domain/workflow.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { iso, isoOrNull } from '../../lib/time.js';
import type { HubRunRow } from './store.js';

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

export function renderHubRun(r: HubRunRow): Static<typeof HubRunInList> {
  return {
    id: r.id,
    workflow_id: r.workflow_id,
    workflow_name: r.workflow_name,
    status: r.status,
    trigger: r.trigger,
    summary: r.summary,
    created_at: iso(r.created_at),
    started_at: isoOrNull(r.started_at),
    finished_at: isoOrNull(r.finished_at),
    duration_ms: r.duration_ms === null ? null : Math.round(Number(r.duration_ms)),
  };
}

export const Output = Type.Object(
  {
    text: Type.String(),
    html: Nullable(Type.String({ description: 'Set when the output is an HTML document or a page the block made: show it sandboxed.' })),
    item_id: Nullable(Uuid),
  },
  { title: 'HubBlockOutput' },
);
export type OutputOut = Static<typeof Output>;

export const HubRunDetail = Type.Object(
  {
    ...HubRunInList.properties,
    final: Type.Boolean({ description: 'true once the status can no longer change.' }),
    billed_micros: Type.Integer(),
    started_by: Nullable(Type.String({ description: 'The person who started it by hand, if one did.' })),
    steps: Type.Array(
      Type.Object({
        node_id: Type.String(),
        node_kind: Type.String(),
        status: StringEnum(RUN_STEP_STATUSES),
        started_at: Nullable(DateTime),
        finished_at: Nullable(DateTime),
        ms: Type.Integer(),
        error: Nullable(Type.String()),
        output: Nullable(Output),
      }),
      { description: 'One per block, in the order they ran.' },
    ),
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
export type HubRunDetailOut = Static<typeof HubRunDetail>;
