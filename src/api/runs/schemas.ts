// Workflow runs' schemas: a started run, a run in a list, a run with its steps, the start's body
// and headers. Pure: TypeBox and src/domain only, for the hub and the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { RUN_STATUSES, RUN_STEP_STATUSES, RUN_TRIGGERS } from '../../domain/workflow.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const RunStatus = StringEnum(RUN_STATUSES);
export const RunTrigger = StringEnum(RUN_TRIGGERS);

export const StartedRun = Type.Object(
  { id: Uuid, workflow_id: Uuid, status: RunStatus, trigger: RunTrigger, created_at: DateTime },
  { title: 'StartedRun' },
);
export type StartedRun = Static<typeof StartedRun>;

const runListFields = {
  id: Uuid,
  workflow_id: Uuid,
  status: RunStatus,
  trigger: RunTrigger,
  summary: Type.String({ description: 'One line on how it went.' }),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
};
export const RunInList = Type.Object(runListFields, { title: 'RunInList' });
export type RunInList = Static<typeof RunInList>;
/** One block's step of a run (no title: it stands inline in RunDetail's document). */
export const RunStep = Type.Object({
  node_id: Type.String(),
  node_kind: Type.String(),
  status: StringEnum(RUN_STEP_STATUSES),
  ms: Type.Integer(),
  error: Nullable(Type.String()),
});
export type RunStep = Static<typeof RunStep>;
export const RunDetail = Type.Object(
  {
    ...runListFields,
    billed_micros: Type.Integer({ description: 'Billed so far, in micros; 1,000,000 micros = US$1.' }),
    steps: Type.Array(
      RunStep,
      { description: 'One per block, in the order they ran.' },
    ),
  },
  { title: 'RunDetail' },
);
export type RunDetail = Static<typeof RunDetail>;

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
// No body at all is the usual request: the route marks it optional in the document (route.ts).
export const StartBody = Type.Object({}, { additionalProperties: false, description: 'Empty, or {}: the body takes no inputs in v1.' });
// Required: a request without it is 400 missing_idempotency_key (src/http/validation.ts).
export const StartHeaders = Type.Object({
  'idempotency-key': Type.String({ description: '8 to 64 printable characters without spaces; a UUID is suitable.' }),
});
export const ListRunsQuery = Type.Object(ListQuery, { additionalProperties: false });
