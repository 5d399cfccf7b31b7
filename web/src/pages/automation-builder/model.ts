// Pure operations on the draft's steps (the definition format: an array run in order unless a step
// names `next` or is a branch) and the mapping of the server's paths (`steps[2].config.subject`,
// the i-th step of the body that was sent) back to a step id and a field.
import { STEP_SCHEMAS } from '@domain/step-schemas';
import type { StepType } from '@domain/automation';
import type { Problem, Step } from '../../data/automations';
import { durationWords, FIELD_WORDS, NO_VALUE_OPS, OP_WORDS } from './words';

const ID_PREFIX: Record<StepType, string> = {
  'email.send': 'email',
  'sms.send': 'sms',
  wait: 'wait',
  'ai.write': 'ai',
  'notify.team': 'notify',
  'task.create': 'task',
  'tag.add': 'tag',
  'field.set': 'update',
  branch: 'branch',
  end: 'end',
};

/** A new step id: the type's prefix and the smallest free number ("email1", "wait2"); never "t" (the trigger's). */
export function newStepId(type: StepType, steps: readonly Step[]): string {
  const taken = new Set(steps.map((s) => s.id));
  for (let n = 1; ; n++) if (!taken.has(`${ID_PREFIX[type]}${n}`)) return `${ID_PREFIX[type]}${n}`;
}

/** A new step's starting config: required choices at their first option, required texts empty (reported until filled). */
export function defaultConfig(type: StepType): Record<string, unknown> {
  if (type === 'wait') return { duration: 'P1D' };
  if (type === 'branch') return { field: 'lifecycle_stage', op: 'eq', value: '' };
  const config: Record<string, unknown> = {};
  for (const f of STEP_SCHEMAS[type].fields) {
    if (!f.required) continue;
    if (f.type === 'text') config[f.name] = '';
    else if (f.type === 'choice') config[f.name] = f.options[0];
  }
  return config;
}

export function newStep(type: StepType, steps: readonly Step[]): Step {
  return { id: newStepId(type, steps), name: STEP_SCHEMAS[type].label, type, config: defaultConfig(type) };
}

export function insertStep(steps: readonly Step[], at: number, step: Step): Step[] {
  return [...steps.slice(0, at), step, ...steps.slice(at)];
}

export function moveStep(steps: readonly Step[], index: number, by: -1 | 1): Step[] {
  const to = index + by;
  if (to < 0 || to >= steps.length) return [...steps];
  const out = [...steps];
  const [a, b] = [out[index], out[to]];
  if (a === undefined || b === undefined) return out;
  out[index] = b;
  out[to] = a;
  return out;
}

/** Removes a step and every `next` or branch that led to it (they fall through to the following step instead). */
export function removeStep(steps: readonly Step[], id: string): Step[] {
  return steps
    .filter((s) => s.id !== id)
    .map((s) => {
      const out: Step = { ...s };
      if (out.next === id) delete out.next;
      if (out.branches) {
        const b = Object.fromEntries(Object.entries(out.branches).filter(([, to]) => to !== id));
        if (Object.keys(b).length) out.branches = b;
        else delete out.branches;
      }
      return out;
    });
}

export function updateStep(steps: readonly Step[], id: string, change: (s: Step) => Step): Step[] {
  return steps.map((s) => (s.id === id ? change(s) : s));
}

/** Sets (or, with '', clears) where a branch's outcome goes. */
export function setBranch(step: Step, label: string, to: string): Step {
  const b = { ...(step.branches ?? {}) };
  if (to) b[label] = to;
  else delete b[label];
  const out: Step = { ...step };
  if (Object.keys(b).length) out.branches = b;
  else delete out.branches;
  return out;
}

/** The step after `index` when nothing is named: the next in array order, or the end. */
export function fallThrough(steps: readonly Step[], index: number): Step | null {
  return steps[index + 1] ?? null;
}

/**
 * The steps a contact goes through from `startId` (as the engine walks them: `next`, else array
 * order; a branch shown as its own step), at most `max`, stopping at a step already listed (a loop).
 */
export function chainFrom(steps: readonly Step[], startId: string | null, max = 6): Step[] {
  const out: Step[] = [];
  let id = startId;
  while (id !== null && out.length < max) {
    const i = steps.findIndex((s) => s.id === id);
    if (i < 0 || out.some((s) => s.id === id)) break;
    const s = steps[i];
    if (!s) break;
    out.push(s);
    if (s.type === 'end' || s.type === 'branch') break;
    id = s.next ?? steps[i + 1]?.id ?? null;
  }
  return out;
}

/** One line about a step's settings for its card's head. */
export function stepSummary(s: Step): string {
  const c = s.config;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v : '');
  switch (s.type) {
    case 'email.send':
      return text(c.subject) ? `Subject: ${text(c.subject)}` : 'No subject yet';
    case 'sms.send':
      return text(c.body) ? `“${text(c.body).slice(0, 60)}”` : 'No text yet';
    case 'wait':
      return typeof c.duration === 'string' ? `For ${durationWords(c.duration)}` : typeof c.until === 'string' ? `Until ${new Date(c.until).toLocaleString()}` : 'No time yet';
    case 'tag.add':
      return text(c.tag) ? `Tag: ${text(c.tag)}` : 'No tag yet';
    case 'field.set':
      return `${String(c.field ?? '')} ← ${c.value === null || c.value === '' ? '(cleared)' : String(c.value ?? '')}`;
    case 'branch':
    {
      const field = FIELD_WORDS[c.field as keyof typeof FIELD_WORDS] ?? String(c.field ?? '');
      const op = String(c.op ?? 'eq');
      const value = NO_VALUE_OPS.has(op) ? '' : ` ${Array.isArray(c.value) ? c.value.join(', ') : String(c.value ?? '')}`;
      return `If ${field.toLowerCase()} ${OP_WORDS[op as keyof typeof OP_WORDS] ?? op}${value}`;
    }
    default:
      return STEP_SCHEMAS[s.type].description;
  }
}

/** A path the server named, split: `steps[2].config.subject` → {step: 2, field: "config.subject"}. */
export function splitPath(path: string): { step: number | null; field: string } {
  const m = /^steps\[(\d+)\](?:\.(.*))?$/.exec(path);
  if (m) return { step: Number(m[1]), field: m[2] ?? '' };
  return { step: null, field: path };
}

/** Messages by step id, then by field ('' = the step as a whole); paths outside the steps under '' (the draft). */
export type Issues = Map<string, Map<string, string>>;

/** Problems (paths into `sent`, the steps array the server saw) as issues on the steps they concern. */
export function issuesOf(problems: readonly Problem[], sent: readonly Step[]): Issues {
  const out: Issues = new Map();
  for (const p of problems) {
    const { step, field } = splitPath(p.path);
    const key = step === null ? '' : sent[step]?.id ?? '';
    const fields = out.get(key) ?? new Map<string, string>();
    if (!fields.has(field)) fields.set(field, p.message);
    out.set(key, fields);
  }
  return out;
}

/** Two issue maps in one (the first wins on the same field). */
export function mergeIssues(a: Issues, b: Issues): Issues {
  const out: Issues = new Map([...b].map(([k, v]) => [k, new Map(v)]));
  for (const [k, v] of a) out.set(k, new Map([...(out.get(k) ?? []), ...v]));
  return out;
}
