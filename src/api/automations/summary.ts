// The Automation resource as the API shows it: built only from the summary columns the store
// computes (step kinds and counters), so no step setting can reach a response by accident.
import { Type, type Static } from '@sinclair/typebox';
import { AUTOMATION_STATUSES, SENDING_STEPS } from '../../domain/automation.js';
import { MESSAGE_CHANNELS } from '../../domain/message.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { iso, isoOrNull } from '../../lib/time.js';
import type { AutomationRow } from './store.js';

export const AutomationStatus = StringEnum(AUTOMATION_STATUSES);


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

export function sendsOf(stepTypes: readonly string[]): AutomationOut['sends'] {
  return SENDING_STEPS.filter(([kind]) => stepTypes.includes(kind)).map(([, what]) => what);
}

export function renderAutomation(r: AutomationRow): AutomationOut {
  return {
    id: r.id,
    project_id: r.project_id,
    name: r.name,
    status: r.status,
    trigger: { type: r.trigger_type, label: r.trigger_label },
    published_version: r.published_version,
    has_unpublished_changes: r.has_unpublished_changes,
    step_count: r.step_count,
    step_types: r.step_types,
    sends: sendsOf(r.step_types),
    enrollments: { total: r.total, active: r.active, completed: r.completed },
    last_run_at: isoOrNull(r.last_run_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
