// The Automation resource's schemas: the shape the API shows (built by summary.ts from the summary
// columns only) and the list's query. Pure: TypeBox and src/domain only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { AUTOMATION_STATUSES } from '../../domain/automation.js';
import { MESSAGE_CHANNELS } from '../../domain/message.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const AutomationStatus = StringEnum(AUTOMATION_STATUSES);
export type AutomationStatus = Static<typeof AutomationStatus>;

export const Automation = Type.Object(
  {
    id: Uuid,
    project_id: Uuid,
    name: Type.String(),
    status: AutomationStatus,
    trigger: Type.Object(
      {
        type: Nullable(Type.String({ description: 'Such as contact.created, schedule, manual; null before one is chosen.' })),
        label: Type.String({ description: 'Its name in the hub.' }),
      },
      { description: 'What starts it (of the version that runs).' },
    ),
    published_version: Type.Integer({ description: 'The version that runs; 0 for a draft never published.' }),
    has_unpublished_changes: Type.Boolean({ description: 'true when the draft differs from the published version.' }),
    step_count: Type.Integer({ description: 'Steps of the version that runs (the draft before publication), branches and end included, not the trigger.' }),
    step_types: Type.Array(Type.String(), { description: 'Kinds of step in it, each once, in first-seen order.' }),
    sends: Type.Array(StringEnum(MESSAGE_CHANNELS), { description: 'What it sends: email and sms to the contact, team to people in the account.' }),
    enrollments: Type.Object(
      {
        total: Type.Integer({ description: 'Every run except one its Run only if filter skipped.' }),
        active: Type.Integer({ description: 'Running or waiting now.' }),
        completed: Type.Integer(),
      },
      { description: 'Its runs, test runs left out.' },
    ),
    last_run_at: Nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { title: 'Automation' },
);
export type AutomationOut = Static<typeof Automation>;
export type Automation = AutomationOut;

export const ListAutomationsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(AutomationStatus),
    project_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type ListAutomationsQuery = Static<typeof ListAutomationsQuery>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
