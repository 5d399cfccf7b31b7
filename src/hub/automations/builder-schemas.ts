// The automation builder's shapes (issue 13 contract): the definition format, the editor, the diff
// and the versions. Bodies declare their fields loosely (any JSON) and strictly (no other field):
// the values are checked by the fixture's validator, so a problem gets the fixture's words and path.
import { Type, type TSchema } from '@sinclair/typebox';
import { AUTOMATION_STATUSES, REENROLL_RULES } from '../../domain/automation.js';
import { STEP_DIFF_FIELDS } from '../../domain/automation-diff.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { Automation } from '../../api/automations/summary.js';

const Any = (description: string) => Type.Unknown({ description });

const Step = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: Type.String({ description: 'A step type of STEP_SCHEMAS.' }),
    config: Type.Record(Type.String(), Type.Unknown()),
    next: Type.Optional(Type.String({ description: 'The id of the step after this one; none ends the run.' })),
    branches: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "A branch step's outcomes: label → step id." })),
  },
  { title: 'AutomationStep' },
);

export const Definition = Type.Object(
  {
    project_id: Uuid,
    name: Type.String(),
    status: StringEnum(AUTOMATION_STATUSES),
    trigger: Type.Object({ type: Nullable(Type.String()), label: Type.String(), config: Type.Record(Type.String(), Type.Unknown()) }),
    run_only_if: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'A condition {field, op, value}, as a branch step.' })),
    reenroll: StringEnum(REENROLL_RULES),
    steps: Type.Array(Step),
  },
  { title: 'AutomationDefinition', description: 'The definition format of `automations create|export`: the fixture automation with project_id and no ref.' },
);

const DEFINITION_DOC = 'Checked by the fixture validator: a problem is 422 invalid_field with param its path in this body (steps[1].type).';

export const CreateBody = Type.Object(
  {
    project_id: Type.Optional(Any('A project of the account (required).')),
    name: Type.Optional(Any('Required.')),
    status: Type.Optional(Any('draft (default), published or paused: the last two publish version 1 at once.')),
    trigger: Type.Optional(Any('{type, label, config}; type one of contact.created, webhook, schedule, manual, or null.')),
    run_only_if: Type.Optional(Any('null or a condition {field, op, value}.')),
    reenroll: Type.Optional(Any('never (default), always or after_exit.')),
    steps: Type.Optional(Any('The steps, each {id, name, type, config, next?, branches?}.')),
  },
  { additionalProperties: false, title: 'AutomationCreate', description: DEFINITION_DOC },
);

export const DraftBody = Type.Object(
  {
    name: Type.Optional(Any('The name.')),
    trigger: Type.Optional(Any('{type, label, config}.')),
    steps: Type.Optional(Any('Every step (the list replaces the draft’s).')),
    run_only_if: Type.Optional(Any('null clears it.')),
    reenroll: Type.Optional(Any('never, always or after_exit.')),
  },
  { additionalProperties: false, title: 'AutomationDraftEdit', description: `Any of the fields; those left out keep their draft value. ${DEFINITION_DOC}` },
);

const Problem = Type.Object({ path: Type.String({ description: 'steps[0].config.subject, trigger.config.cron, run_only_if.field' }), message: Type.String() });

export const AutomationEditor = Type.Object(
  {
    automation: Automation,
    draft: Definition,
    published: Nullable(Definition),
    problems: Type.Array(Problem, { description: 'What blocks publishing (step configs, a schedule, the Run-only-if filter); empty when it can be published.' }),
    project: Type.Object({
      id: Uuid,
      name: Type.String(),
      sms_consent_required: Type.Boolean(),
      max_automations_per_contact: Type.Integer(),
    }),
    sms_micros_per_segment: Type.Integer({ description: 'The price of one SMS segment in millionths of the currency unit.' }),
    webhook: Type.Object({ configured: Type.Boolean({ description: 'A webhook secret exists (its URL works).' }) }),
  },
  { title: 'AutomationEditor' },
);

const StepList = (description: string): TSchema => Type.Array(Step, { description });

export const AutomationDiff = Type.Object(
  {
    from_version: Type.Integer({ description: 'The published version compared against; 0 when never published (every step is then added).' }),
    steps: Type.Object({
      added: StepList('In the draft, not in the published version.'),
      removed: StepList('In the published version, not in the draft.'),
      changed: Type.Array(
        Type.Object({ id: Type.String(), fields: Type.Array(StringEnum(STEP_DIFF_FIELDS)), before: Step, after: Step }),
        { description: 'Steps in both (by id) that differ.' },
      ),
      reordered: Type.Boolean({ description: 'The steps kept are in another order.' }),
    }),
    trigger_changed: Type.Boolean(),
    run_only_if_changed: Type.Boolean(),
    reenroll_changed: Type.Boolean(),
    name_changed: Type.Boolean(),
    has_changes: Type.Boolean({ description: "/v1's has_unpublished_changes: false while never published." }),
  },
  { title: 'AutomationDiff' },
);

const VersionSummary = {
  version: Type.Integer(),
  published_at: DateTime,
  published_by: Nullable(Type.String({ description: 'The person (name or email), "operator" for the CLI; null when not recorded (a fixture).' })),
};

export const VersionList = Type.Object({ data: Type.Array(Type.Object(VersionSummary)) }, { title: 'AutomationVersionList' });
export const VersionView = Type.Object({ ...VersionSummary, definition: Definition }, { title: 'AutomationVersion' });

export const Deleted = Type.Object({ id: Uuid, deleted: Type.Literal(true) }, { title: 'AutomationDeleted' });
