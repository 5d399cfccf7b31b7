// The draft of an automation against its published version, as the builder shows it before
// Publish: steps added, removed and changed (matched by id), and whether the trigger, the
// Run-only-if filter, re-enrollment or the name changed. Pure, so the browser can run it too.
// JSON values are compared deeply with key order ignored, as the database compares jsonb, so
// `has_changes` is exactly /v1's has_unpublished_changes (false while nothing is published).

export interface DiffStep {
  id: string;
  name?: string;
  type?: string;
  config?: unknown;
  next?: string;
  branches?: Record<string, string>;
  [key: string]: unknown;
}

/** What the diff reads of a definition (the definition format's fields that a version keeps). */
export interface DiffSide {
  name: string;
  trigger: unknown;
  run_only_if: unknown;
  reenroll: string;
  steps: readonly DiffStep[];
}

export const STEP_DIFF_FIELDS = ['name', 'type', 'config', 'next', 'branches'] as const;
export type StepDiffField = (typeof STEP_DIFF_FIELDS)[number];

/** `S`: how the reader types a step (the browser's builder has its own, narrower Step). */
export interface AutomationDiff<S extends { id: string } = DiffStep> {
  /** The published version compared against; 0 when never published. */
  from_version: number;
  steps: {
    added: S[];
    removed: S[];
    changed: Array<{ id: string; fields: StepDiffField[]; before: S; after: S }>;
    /** The same steps in another order (the flow's order is part of what is published). */
    reordered: boolean;
  };
  trigger_changed: boolean;
  run_only_if_changed: boolean;
  reenroll_changed: boolean;
  name_changed: boolean;
  has_changes: boolean;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deep equality of JSON values, object key order ignored; undefined and null are one "nothing". */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isPlain(a) && isPlain(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** `published` is null when the automation was never published: every step is then "added". */
export function diffAutomation(published: (DiffSide & { version: number }) | null, draft: DiffSide): AutomationDiff {
  const before = published?.steps ?? [];
  const beforeById = new Map(before.map((s) => [s.id, s]));
  const afterIds = new Set(draft.steps.map((s) => s.id));
  const added = draft.steps.filter((s) => !beforeById.has(s.id));
  const removed = before.filter((s) => !afterIds.has(s.id));
  const changed: AutomationDiff['steps']['changed'] = [];
  for (const after of draft.steps) {
    const was = beforeById.get(after.id);
    if (!was) continue;
    const fields = STEP_DIFF_FIELDS.filter((f) => !jsonEqual(was[f], after[f]));
    if (fields.length) changed.push({ id: after.id, fields, before: was, after });
  }
  const kept = (ids: readonly DiffStep[], other: Set<string>) => ids.map((s) => s.id).filter((id) => other.has(id));
  const reordered = !jsonEqual(kept(before, afterIds), kept(draft.steps, new Set(beforeById.keys())));
  if (!published) {
    return {
      from_version: 0,
      steps: { added, removed, changed, reordered: false },
      trigger_changed: false,
      run_only_if_changed: false,
      reenroll_changed: false,
      name_changed: false,
      has_changes: false,
    };
  }
  const flags = {
    trigger_changed: !jsonEqual(published.trigger, draft.trigger),
    run_only_if_changed: !jsonEqual(published.run_only_if, draft.run_only_if),
    reenroll_changed: published.reenroll !== draft.reenroll,
    name_changed: published.name !== draft.name,
  };
  const has_changes = added.length > 0 || removed.length > 0 || changed.length > 0 || reordered || Object.values(flags).some(Boolean);
  return { from_version: published.version, steps: { added, removed, changed, reordered }, ...flags, has_changes };
}

/**
 * One difference inside a changed step, for the publish dialog to say what changed rather than
 * which part: `part` is the step field; `key` is the config setting or branch outcome within it.
 * A value that is absent on one side is `undefined` there (a setting added or removed).
 */
export interface StepFieldChange {
  part: StepDiffField;
  key?: string;
  before: unknown;
  after: unknown;
}

const keysOf = (a: unknown, b: unknown): string[] => [...new Set([...Object.keys(isPlain(a) ? a : {}), ...Object.keys(isPlain(b) ? b : {})])];
const at = (o: unknown, k: string): unknown => (isPlain(o) ? o[k] : undefined);

/** What stepFieldChanges reads of a step (any step type with these fields, the builder's too). */
export type StepParts = { readonly [K in StepDiffField]?: unknown };

/** The differences of two versions of one step, config and branches key by key, in STEP_DIFF_FIELDS order. */
export function stepFieldChanges(before: StepParts, after: StepParts): StepFieldChange[] {
  const out: StepFieldChange[] = [];
  for (const part of STEP_DIFF_FIELDS) {
    const b = before[part];
    const a = after[part];
    if (jsonEqual(b, a)) continue;
    // Settings and branches are objects whose keys are worth naming one by one; anything else
    // (a config that is not an object, a renamed step) is one change as a whole.
    if ((part === 'config' || part === 'branches') && (isPlain(b) || b == null) && (isPlain(a) || a == null)) {
      for (const key of keysOf(b, a)) {
        if (!jsonEqual(at(b, key), at(a, key))) out.push({ part, key, before: at(b, key), after: at(a, key) });
      }
    } else {
      out.push({ part, before: b, after: a });
    }
  }
  return out;
}
