// Automation runs' schemas: a run, a run with its steps, the list's query. Pure: TypeBox and
// src/domain only, so the hub and the web app read the same shapes.
import { Type, type Static } from '@sinclair/typebox';
import { AUTOMATION_RUN_STATUSES, AUTOMATION_STEP_STATUSES } from '../../domain/automation.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const RunStatus = StringEnum(AUTOMATION_RUN_STATUSES);

const runFields = {
  id: Uuid,
  automation_id: Uuid,
  contact: Nullable(
    Type.Object({ id: Uuid, name: Type.String() }, { description: 'null for a run with no contact (a scheduled run).' }),
  ),
  status: RunStatus,
  status_label: Type.String({ description: 'The status in the words Run history uses.' }),
  started_by: Type.String({ description: 'The trigger, the person who enrolled the contact, or the API key (name and truncated prefix).' }),
  test: Type.Boolean({ description: 'true for a test run from the builder, which sends only to the person testing.' }),
  version: Type.Integer({ description: "The published version it runs; 0 for a builder's test of the draft, which runs no published version." }),
  started_at: DateTime,
  finished_at: Nullable(DateTime),
  next_at: Nullable(DateTime),
  error: Nullable(Type.String()),
};
export const AutomationRun = Type.Object(runFields, { title: 'AutomationRun' });
/** One step of a run (no title: it stands inline in AutomationRunDetail's document). */
export const AutomationRunStep = Type.Object({
  step_id: Type.String({ description: "The step's id in the automation; t is the trigger." }),
  name: Type.String(),
  type: Type.String(),
  status: StringEnum(AUTOMATION_STEP_STATUSES),
  started_at: Nullable(DateTime),
  ms: Type.Integer(),
  error: Nullable(Type.String()),
});
export const AutomationRunDetail = Type.Object(
  {
    ...runFields,
    failed_step_id: Nullable(Type.String({ description: 'For a failed run, the step it stopped at.' })),
    steps: Type.Array(
      AutomationRunStep,
      { description: 'Steps run so far, in order, the trigger first; what a step sent is omitted.' },
    ),
  },
  { title: 'AutomationRunDetail' },
);
export type AutomationRun = Static<typeof AutomationRun>;
export type AutomationRunDetail = Static<typeof AutomationRunDetail>;
export type AutomationRunStep = Static<typeof AutomationRunStep>;

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export const ListRunsQuery = Type.Object({ ...ListQuery, status: Type.Optional(RunStatus) }, { additionalProperties: false });
