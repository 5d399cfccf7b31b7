// Validating an automation (trigger + steps, docs/architecture.md §12.3): one set of rules for the
// fixture loader, the operator's draft edit (./service.ts) and the hub's builder, so they cannot
// drift apart. Reads parsed JSON through the path-carrying field reader: a refusal names the path
// at fault.
import { AUTOMATION_STATUSES, REENROLL_RULES, STEP_TYPES, TRIGGER_TYPES, type ReenrollRule } from '../../domain/automation.js';
import { Fields, RefSet, asObject, child, describe, eachEntry, fail, type DefinitionError, type JsonObject } from '../../lib/json-fields.js';
import type { FlowRefs } from '../workflows/validate.js';

const AUTOMATION_FIELDS = ['ref', 'name', 'project', 'status', 'trigger', 'run_only_if', 'reenroll', 'steps'];
const TRIGGER_FIELDS = ['type', 'label', 'config'];
const STEP_FIELDS = ['id', 'name', 'type', 'config', 'next', 'branches'];
/** Automation run steps name the trigger `t` (spec), so no step of the automation may take it. */
const TRIGGER_STEP_ID = 't';

export interface TriggerSpec {
  type: string | null;
  label: string;
  config: JsonObject;
}

export interface StepSpec {
  id: string;
  name: string;
  type: (typeof STEP_TYPES)[number];
  config: JsonObject;
  next?: string;
  /** Branch label → step id (a `branch` step's outcomes, e.g. {"yes": "e2", "no": "x"}). */
  branches?: Record<string, string>;
}

export interface AutomationSpec {
  ref: string;
  name: string;
  project: string;
  status: (typeof AUTOMATION_STATUSES)[number];
  trigger: TriggerSpec;
  run_only_if: JsonObject | null;
  reenroll: ReenrollRule;
  steps: StepSpec[];
}

/** The account's automations; with `onFault`, an automation at fault is reported there and left out (the fixture loader lists every fault). */
export function validateAutomations(account: Fields, ctx: FlowRefs, onFault?: (err: DefinitionError) => void): AutomationSpec[] {
  const refs = new RefSet('automation');
  return eachEntry(account.list('automations'), (v, path) => {
    const f = new Fields(path, v, AUTOMATION_FIELDS);
    const ref = f.ref();
    refs.add(ref, f.at('ref'), true);
    const name = f.text('name');
    // The schema ties every automation to a project (it owns the consent and per-contact settings).
    const project = f.ref('project');
    ctx.projects.resolve(project, f.at('project'));
    const status = f.oneOf('status', AUTOMATION_STATUSES, 'draft');
    const trigger = validateTrigger(f);
    if (status !== 'draft' && trigger.type === null) {
      fail(f.at('trigger'), `a ${status} automation needs a trigger type`);
    }
    const run_only_if = f.optObject('run_only_if');
    const reenroll = f.oneOf('reenroll', REENROLL_RULES, 'never');
    const steps = validateSteps(f);
    return { ref, name, project, status, trigger, run_only_if, reenroll, steps };
  }, onFault);
}

function validateTrigger(f: Fields): TriggerSpec {
  if (!f.has('trigger')) return { type: null, label: '', config: {} };
  const t = new Fields(f.at('trigger'), f.o.trigger, TRIGGER_FIELDS);
  const type = t.given('type') ? t.ref('type') : null;
  // Structural like a step's type: a trigger nothing starts would publish an automation that never runs.
  if (type !== null && !(TRIGGER_TYPES as readonly string[]).includes(type)) {
    fail(t.at('type'), `${JSON.stringify(type)} is not a trigger type (types: ${TRIGGER_TYPES.join(', ')})`);
  }
  return { type, label: t.line('label', ''), config: t.object('config') };
}

function validateSteps(f: Fields): StepSpec[] {
  const entries = f.list('steps');
  // Targets may point forward, so every id is known before any `next` is checked.
  const ids = new Map<string, string>();
  for (const [v, p] of entries) {
    const id = asObject(v, p).id;
    if (typeof id !== 'string' || !id.trim()) continue; // refused with its path below
    if (id === TRIGGER_STEP_ID) fail(`${p}.id`, `"${TRIGGER_STEP_ID}" is reserved for the trigger`);
    if (ids.has(id)) fail(`${p}.id`, `duplicate step id ${JSON.stringify(id)} (already used at ${ids.get(id)})`);
    ids.set(id, p);
  }
  const target = (id: unknown, path: string, self: string): string => {
    if (typeof id !== 'string') fail(path, `must be a step id (a string), got ${describe(id)}`);
    if (!ids.has(id)) fail(path, `no step with id ${JSON.stringify(id)} in this automation`);
    if (id === self) fail(path, `step ${JSON.stringify(id)} cannot lead to itself`);
    return id;
  };
  return entries.map(([v, p]) => {
    const s = new Fields(p, v, STEP_FIELDS);
    const id = s.ref('id');
    const name = s.text('name');
    const type = s.str('type');
    if (!(STEP_TYPES as readonly string[]).includes(type)) {
      fail(s.at('type'), `${JSON.stringify(type)} is not a step type (types: ${STEP_TYPES.join(', ')})`);
    }
    const step: StepSpec = { id, name, type: type as StepSpec['type'], config: s.object('config') };
    if (s.has('next')) step.next = target(s.o.next, s.at('next'), id);
    if (s.has('branches')) {
      if (type !== 'branch') fail(s.at('branches'), `only a branch step has branches; this is a ${type} step`);
      if (s.has('next')) fail(s.at('branches'), 'a step has either next or branches, not both');
      const b = asObject(s.o.branches, s.at('branches'));
      if (!Object.keys(b).length) fail(s.at('branches'), 'must name at least one branch, such as {"yes": "step id"}');
      step.branches = Object.fromEntries(Object.entries(b).map(([label, to]) => [label, target(to, child(s.at('branches'), label), id)]));
    }
    return step;
  });
}
