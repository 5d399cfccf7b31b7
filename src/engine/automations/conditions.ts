// Pure helpers of the automation steps: what templates see of a contact (the rendering itself is
// src/domain/template.ts), branch conditions and ISO 8601 durations.
import type { StepContactRow } from '../../domain/contact.js';
import { CONDITION_FIELDS } from '../../domain/step-schemas.js';

export type Outputs = Record<string, Record<string, unknown>>;

/** What templates see: the contact's fields (empty strings for a run with no contact) and earlier step outputs. */
export function templateView(contact: StepContactRow | null, outputs: Outputs): Record<string, unknown> {
  const c = contact;
  const name = [c?.first_name, c?.last_name].filter(Boolean).join(' ') || c?.email || '';
  return {
    first_name: c?.first_name ?? '',
    last_name: c?.last_name ?? '',
    name,
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    lifecycle_stage: c?.lifecycle_stage ?? '',
    tags: (c?.tags ?? []).join(', '),
    steps: outputs,
  };
}

// P1D, PT2H, PT30S, P1Y2M3W4DT5H6M7.5S: designators in order, at least one, a T only before time parts.
const DURATION_RE = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;

/** The wait's end, as SQL input: an ISO 8601 interval (PostgreSQL reads it as written) or a time. */
export function waitSpec(config: Record<string, unknown>): { interval: string; until: null } | { interval: null; until: string } | { error: string } {
  const { duration, until } = config;
  if (typeof duration === 'string' && until === undefined) {
    if (!DURATION_RE.test(duration)) return { error: `config.duration must be an ISO 8601 duration such as P1D or PT2H, got ${JSON.stringify(duration)}` };
    return { interval: duration, until: null };
  }
  if (typeof until === 'string' && duration === undefined) {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(until) || Number.isNaN(Date.parse(until))) {
      return { error: `config.until must be a date-time with a time zone, got ${JSON.stringify(until)}` };
    }
    return { interval: null, until };
  }
  return { error: 'a wait needs config.duration (ISO 8601, such as P1D) or config.until (a date-time), not both' };
}

const BRANCH_FIELDS: ReadonlySet<string> = new Set(CONDITION_FIELDS);

/** A branch's condition `{field, op, value}` over the contact: true → "yes", false → "no". */
export function evaluateCondition(config: Record<string, unknown>, contact: StepContactRow | null): { result: boolean } | { error: string } {
  const { field, op, value } = config;
  if (typeof field !== 'string' || !BRANCH_FIELDS.has(field)) return { error: `config.field must be a contact field (${[...BRANCH_FIELDS].join(', ')})` };
  const actual: unknown = contact ? (contact as unknown as Record<string, unknown>)[field] ?? null : null;
  const list = Array.isArray(actual) ? actual.map(String) : null;
  const eq = (a: unknown, b: unknown) => (a === null || a === undefined ? b === null : String(a).toLowerCase() === String(b).toLowerCase());
  switch (op ?? 'eq') {
    case 'eq':
      return { result: list ? list.some((t) => eq(t, value)) : eq(actual, value) };
    case 'ne':
    case 'neq':
      return { result: list ? !list.some((t) => eq(t, value)) : !eq(actual, value) };
    case 'in':
    case 'not_in': {
      if (!Array.isArray(value)) return { error: `config.value must be a list for op ${String(op)}` };
      const hit = list ? list.some((t) => value.some((v) => eq(t, v))) : value.some((v) => eq(actual, v));
      return { result: op === 'in' ? hit : !hit };
    }
    case 'contains':
    case 'not_contains': {
      const hit = list ? list.some((t) => eq(t, value)) : String(actual ?? '').toLowerCase().includes(String(value ?? '').toLowerCase());
      return { result: op === 'contains' ? hit : !hit };
    }
    case 'exists':
    case 'is_set':
      return { result: list ? list.length > 0 : actual !== null && actual !== '' };
    case 'not_exists':
    case 'is_empty':
      return { result: list ? list.length === 0 : actual === null || actual === '' };
    default:
      return { error: `unknown condition op ${JSON.stringify(op)}` };
  }
}
