// The hub's sprint shapes: /v1's sprint (api/workmgmt/schemas.ts) with its goal, and the bodies of
// the planning writes (create, edit while planned, finish with where the unfinished items go).
// Pure: TypeBox and schema modules only.
import { Type, type Static } from '@sinclair/typebox';
import { Line, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { Sprint } from '../../api/workmgmt/schemas.js';
import { WM_LIMITS } from '../../domain/work-item.js';

/** A sprint as the hub shows it: /v1's, and the goal its planner wrote. */
export const HubSprint = Type.Object(
  { ...Sprint.properties, goal: Type.String({ description: "The sprint's goal, as written; '' when none." }) },
  { title: 'HubSprint' },
);
export type HubSprint = Static<typeof HubSprint>;

export const SprintParams = Type.Object({ project_id: Uuid, sprint_id: Uuid }, { additionalProperties: false });
export type SprintParams = Static<typeof SprintParams>;

const DateOrNull = Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD; null: not set.' }));

/** A sprint's plan; in an edit, the fields sent change and the rest stay. */
const planFields = {
  name: Line({ maxLength: WM_LIMITS.sprintName }),
  goal: Type.Optional(Type.String({ maxLength: WM_LIMITS.sprintGoal, description: 'What the sprint is for; text with lines.' })),
  start_date: Type.Optional(DateOrNull),
  end_date: Type.Optional({ ...DateOrNull, description: 'Not before the start date.' }),
};

export const CreateSprintBody = Type.Object(planFields, { additionalProperties: false, title: 'HubSprintCreateBody' });
export type CreateSprintBody = Static<typeof CreateSprintBody>;

export const EditSprintBody = Type.Object(
  { ...planFields, name: Type.Optional(planFields.name) },
  { additionalProperties: false, title: 'HubSprintEditBody' },
);
export type EditSprintBody = Static<typeof EditSprintBody>;

export const FinishSprintBody = Type.Object(
  {
    unfinished_to: StringEnum(['backlog', 'sprint'] as const, {
      description: 'Where the items not done go: the backlog, or the planned sprint named by sprint_id.',
    }),
    sprint_id: Type.Optional({ ...Uuid, description: 'A planned sprint of this project; required when unfinished_to is sprint.' }),
    summary: Type.Optional(Type.String({ maxLength: WM_LIMITS.reviewSummary, description: "The review's words; text with lines." })),
  },
  { additionalProperties: false, title: 'HubSprintFinishBody' },
);
export type FinishSprintBody = Static<typeof FinishSprintBody>;
