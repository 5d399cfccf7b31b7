// The hub's automation shapes. The builder's (issue 13 contract): the definition format, the
// editor, the diff and the versions. Bodies declare their fields loosely (any JSON) and strictly
// (no other field): the values are checked by the fixture's validator, so a problem gets the
// fixture's words and path. Then the automation's page, and the builder's test, preview and
// webhook. Pure: TypeBox, src/domain and other schema modules only, for the web app too.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AUTOMATION_RUN_STATUSES, AUTOMATION_STATUSES, REENROLL_RULES } from '../../domain/automation.js';
import { STEP_DIFF_FIELDS } from '../../domain/automation-diff.js';
import { MAX_EMAIL_BODY, MAX_EMAIL_SUBJECT } from '../../domain/step-schemas.js';
import { DateTime, ListEnvelope, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { Automation } from '../../api/automations/schemas.js';
import { AutomationRun } from '../../api/automation-runs/schemas.js';

const Any = (description: string) => Type.Unknown({ description });

export const Step = Type.Object(
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
export type Step = Static<typeof Step>;

/** What starts it (no title: it stands inline in the definition's document). */
export const Trigger = Type.Object({ type: Nullable(Type.String()), label: Type.String(), config: Type.Record(Type.String(), Type.Unknown()) });
export type Trigger = Static<typeof Trigger>;

export const Definition = Type.Object(
  {
    project_id: Uuid,
    name: Type.String(),
    status: StringEnum(AUTOMATION_STATUSES),
    trigger: Trigger,
    run_only_if: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'A condition {field, op, value}, as a branch step.' })),
    reenroll: StringEnum(REENROLL_RULES),
    steps: Type.Array(Step),
  },
  { title: 'AutomationDefinition', description: 'The definition format of `automations create|export`: the fixture automation with project_id and no ref.' },
);
export type Definition = Static<typeof Definition>;

const DEFINITION_DOC = 'Checked by the fixture validator: a problem is 422 invalid_field with param its path in this body (steps[1].type).';

/** The definition's fields a draft edit may change; creating takes them too, with project and status. */
const DefinitionFields = {
  name: Type.Optional(Any('The name (required to create).')),
  trigger: Type.Optional(Any('{type, label, config}; type one of contact.created, webhook, schedule, manual, or null.')),
  run_only_if: Type.Optional(Any('null (none; on an edit, clears it) or a condition {field, op, value}.')),
  reenroll: Type.Optional(Any('never (the default), always or after_exit.')),
  steps: Type.Optional(Any('Every step, each {id, name, type, config, next?, branches?}; on an edit the list replaces the draft’s.')),
};

export const CreateBody = Type.Object(
  {
    project_id: Type.Optional(Any('A project of the account (required).')),
    status: Type.Optional(Any('draft (default), published or paused: the last two publish version 1 at once.')),
    ...DefinitionFields,
  },
  { additionalProperties: false, title: 'AutomationCreate', description: DEFINITION_DOC },
);
export type CreateBody = Static<typeof CreateBody>;

export const DraftBody = Type.Object(DefinitionFields, {
  additionalProperties: false,
  title: 'AutomationDraftEdit',
  description: `Any of the fields; those left out keep their draft value. ${DEFINITION_DOC}`,
});
export type DraftBody = Static<typeof DraftBody>;

export const Problem = Type.Object({ path: Type.String({ description: 'steps[0].config.subject, trigger.config.cron, run_only_if.field' }), message: Type.String() });
export type Problem = Static<typeof Problem>;
/** The project's facts the builder needs (no title: inline in the editor's document). */
export const ProjectFacts = Type.Object({
  id: Uuid,
  name: Type.String(),
  sms_consent_required: Type.Boolean(),
  max_automations_per_contact: Type.Integer(),
});
export type ProjectFacts = Static<typeof ProjectFacts>;

export const AutomationEditor = Type.Object(
  {
    automation: Automation,
    draft: Definition,
    published: Nullable(Definition),
    problems: Type.Array(Problem, { description: 'What blocks publishing (step configs, a schedule, the Run-only-if filter); empty when it can be published.' }),
    project: ProjectFacts,
    sms_micros_per_segment: Type.Integer({ description: 'The price of one SMS segment in millionths of the currency unit.' }),
    webhook: Type.Object({ configured: Type.Boolean({ description: 'A webhook secret exists (its URL works).' }) }),
  },
  { title: 'AutomationEditor' },
);
export type AutomationEditor = Static<typeof AutomationEditor>;

const StepList = (description: string): TSchema => Type.Array(Step, { description });

/** The settings a publish may change besides the steps (no title: inline in the diff's document). */
export const DiffSettings = Type.Object({
  name: Type.String(),
  trigger: Trigger,
  run_only_if: Definition.properties.run_only_if,
  reenroll: StringEnum(REENROLL_RULES),
});
export type DiffSettings = Static<typeof DiffSettings>;

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
    settings: Type.Object(
      { published: Nullable(DiffSettings), draft: DiffSettings },
      { description: 'The settings on both sides, for the publish dialog to say each change in words (the filter, also when unchanged).' },
    ),
  },
  { title: 'AutomationDiff' },
);
export type AutomationDiff = Static<typeof AutomationDiff>;

const versionFields = {
  version: Type.Integer(),
  published_at: DateTime,
  published_by: Nullable(Type.String({ description: 'The person (name or email), "operator" for the CLI; null when not recorded (a fixture).' })),
};
/** A published version in the list (no title: inline in the list's document). */
export const VersionSummary = Type.Object(versionFields);
export type VersionSummary = Static<typeof VersionSummary>;

export const VersionList = Type.Object({ data: Type.Array(VersionSummary) }, { title: 'AutomationVersionList' });
export type VersionList = Static<typeof VersionList>;
export const VersionView = Type.Object({ ...versionFields, definition: Definition }, { title: 'AutomationVersion' });
export type VersionView = Static<typeof VersionView>;

export const Deleted = Type.Object({ id: Uuid, deleted: Type.Literal(true) }, { title: 'AutomationDeleted' });
export type Deleted = Static<typeof Deleted>;

export const DetailQuery = Type.Object(
  { ...ListQuery, status: Type.Optional(StringEnum(AUTOMATION_RUN_STATUSES, { description: 'Only runs in this status.' })) },
  { additionalProperties: false },
);
export type DetailQuery = Static<typeof DetailQuery>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

export const HubAutomationDetail = Type.Object(
  {
    automation: Automation,
    runs: ListEnvelope(AutomationRun, 'HubAutomationRunPage'),
  },
  { title: 'HubAutomationDetail', description: 'The automation and one page of its runs (limit, cursor and status page through them).' },
);
export type HubAutomationDetail = Static<typeof HubAutomationDetail>;

export const TestBody = Type.Object(
  {
    contact_id: Uuid,
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'A published version to test; without it, the draft as saved now.' })),
  },
  { additionalProperties: false },
);
export type TestBody = Static<typeof TestBody>;
export const TestStarted = Type.Object(
  {
    run: AutomationRun,
    tester_email: Type.String({ description: 'The only address the test sends to (texts come to it as emails).' }),
    filter: Type.Union([
      Type.Object({
        condition: Type.Record(Type.String(), Type.Unknown(), { description: 'The Run-only-if filter of what was tested.' }),
        matches: Type.Boolean({ description: 'false: a run started by the trigger would skip this contact (the test ran anyway).' }),
        error: Nullable(Type.String({ description: 'The filter could not be applied to this contact.' })),
      }),
      Type.Null(),
    ], { description: 'null: what was tested has no Run-only-if filter. A test never applies the filter.' }),
  },
  {
    title: 'HubAutomationTestRun',
    description: 'run.test is true; run.version is the version tested, 0 for a test of the draft (which runs no published version).',
  },
);
export type TestStarted = Static<typeof TestStarted>;

export const PreviewBody = Type.Object(
  {
    channel: StringEnum(['email', 'sms'] as const),
    subject: Type.Optional(Type.String({ maxLength: MAX_EMAIL_SUBJECT, description: 'An email step’s subject template.' })),
    body: Type.String({ maxLength: MAX_EMAIL_BODY, description: 'The email’s HTML body or the text’s template.' }),
    contact_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type PreviewBody = Static<typeof PreviewBody>;
export const TemplatePreview = Type.Object(
  {
    subject: Nullable(Type.String()),
    body: Type.String({ description: 'email: the rendered HTML (show it only in a sandboxed iframe); sms: the text.' }),
    segments: Type.Optional(Type.Integer({ description: 'sms: the segments it takes, which is what a send is billed by.' })),
    encoding: Type.Optional(StringEnum(['gsm7', 'ucs2'] as const)),
    micros: Type.Optional(Type.Integer({ description: 'sms: the price of one send, in millionths of the currency unit.' })),
    contact: Nullable(Type.Object({ id: Uuid, name: Type.String() }, { description: 'null: the sample contact Ada Lovelace <ada@example.com>.' })),
  },
  { title: 'HubTemplatePreview' },
);
export type TemplatePreview = Static<typeof TemplatePreview>;

export const Webhook = Type.Object(
  {
    url: Type.String({ description: 'POST {email, first_name?, last_name?, phone?} here to start a run.' }),
    secret: Type.String({ description: 'Shown once; only its hash is stored. The previous URL no longer works.' }),
  },
  { title: 'HubAutomationWebhook' },
);
export type Webhook = Static<typeof Webhook>;

export const VersionParams = Type.Object({ id: Uuid, version: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }, { additionalProperties: false });
export type VersionParams = Static<typeof VersionParams>;
