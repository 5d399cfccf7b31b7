// What a draft needs before it can run, beyond its structure (./validate.ts): each step's config
// against STEP_SCHEMAS, a schedule trigger's cron and time zone, and the Run-only-if condition
// (a branch's condition: field/op/value over CONDITION_FIELDS/CONDITION_OPS). These are publish
// rules, not save rules: the builder saves the draft as it is typed, so a half-written subject or
// cron must be savable; the editor lists them as `problems` and publishing (or a draft's test run)
// is refused on the first. Paths are the body's (`steps[0].config.subject`), as a fixture names them.
import { configIssues, fieldWords, type KindSchema } from '../../domain/config-schema.js';
import { STEP_SCHEMAS } from '../../domain/step-schemas.js';
import { STEP_TYPES, type StepType } from '../../domain/automation.js';
import { scheduleWords } from '../../engine/schedules/cron.js';
import { child } from '../../lib/json-fields.js';
import { templateProblem } from '../../domain/template.js';

export interface Problem {
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every step whose config fails its type's schema: the first problem of each step, in step order. */
export function stepProblems(steps: readonly unknown[]): Problem[] {
  const out: Problem[] = [];
  steps.forEach((s, i) => {
    if (!isObject(s) || !(STEP_TYPES as readonly unknown[]).includes(s.type)) return; // structural: refused at save
    const p = firstIssue(STEP_SCHEMAS[s.type as StepType], s.config);
    // child() brackets a key that is not a plain name (config["my colour"]), as the fixture reader does.
    if (p) out.push({ path: p.field === null ? `steps[${i}].config` : child(`steps[${i}].config`, p.field), message: p.message });
  });
  return out;
}

/** A config's first problem in a person's words, with the field's label ("Fill in the subject"). */
function firstIssue(schema: KindSchema, config: unknown): { field: string | null; message: string } | null {
  const first = configIssues(schema, isObject(config) ? config : {})[0];
  if (!first) return null;
  return { field: first.field, message: fieldWords(schema.fields.find((f) => f.name === first.field), first.field ?? '', first.issue) };
}

/**
 * Every template field of every step that Mustache cannot read. A narrower check than
 * stepProblems: the one a fixture's published automation must pass (a fixture may keep other
 * step settings lax; the engine fails such a step with a reason, but a template it cannot read
 * must never reach a run).
 */
export function templateProblems(steps: readonly unknown[]): Problem[] {
  const out: Problem[] = [];
  steps.forEach((s, i) => {
    if (!isObject(s) || !(STEP_TYPES as readonly unknown[]).includes(s.type) || !isObject(s.config)) return;
    for (const f of STEP_SCHEMAS[s.type as StepType].fields) {
      const v = s.config[f.name];
      if (f.type !== 'text' || f.placeholders !== 'contact' || typeof v !== 'string') continue;
      const bad = templateProblem(v);
      if (bad) out.push({ path: child(`steps[${i}].config`, f.name), message: fieldWords(f, f.name, { reason: 'template', detail: bad }) });
    }
  });
  return out;
}

/** A schedule trigger needs a cron that fires in a valid time zone (UTC when none is given). */
export function triggerProblems(trigger: unknown): Problem[] {
  if (!isObject(trigger) || trigger.type !== 'schedule') return [];
  const config = isObject(trigger.config) ? trigger.config : {};
  const { cron, timezone } = config;
  if (typeof cron !== 'string' || !cron.trim()) {
    return [{ path: 'trigger.config.cron', message: 'Choose when the schedule runs (or write a cron expression such as "0 9 * * 1")' }];
  }
  if (timezone !== undefined && (typeof timezone !== 'string' || !timezone.trim())) {
    return [{ path: 'trigger.config.timezone', message: 'The time zone must be a name such as Europe/Paris' }];
  }
  const problem = scheduleWords(cron, timezone ?? 'UTC');
  return problem ? [{ path: 'trigger.config.cron', message: problem }] : [];
}

/** The Run-only-if filter is a branch's condition: its problems named under `run_only_if`. */
export function runOnlyIfProblems(runOnlyIf: unknown): Problem[] {
  if (runOnlyIf === null || runOnlyIf === undefined) return [];
  const p = firstIssue(STEP_SCHEMAS.branch, runOnlyIf);
  if (!p) return [];
  return [{ path: p.field === null ? 'run_only_if' : child('run_only_if', p.field), message: `Run only if: ${p.message}` }];
}

/** Everything that blocks publishing the draft, trigger first, then the filter, then the steps. */
export function publishProblems(d: { trigger: unknown; run_only_if: unknown; steps: readonly unknown[] }): Problem[] {
  return [...triggerProblems(d.trigger), ...runOnlyIfProblems(d.run_only_if), ...stepProblems(d.steps)];
}
