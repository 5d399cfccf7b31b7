// The settings of a workflow block or an automation step, declared once as data: the engine and
// the save-time validators check configs against these (checkConfig), and the hub's builders
// generate their settings forms from the same declarations (web imports src/domain through the
// `@domain` alias). Pure: no Node.js imports, so the browser bundle can carry it.
import { templateProblem } from './template.js';

/** What a template field's `{{name}}` placeholders may name: feeding blocks, or the contact's fields. */
export type PlaceholderScope = 'blocks' | 'contact';

interface FieldBase {
  /** The config key. */
  name: string;
  /** The form's label. */
  label: string;
  /** One sentence under the field in the form. */
  help?: string;
  required: boolean;
}

export type ConfigField =
  | (FieldBase & {
      type: 'text';
      multiline: boolean;
      maxLength: number;
      /** An empty string is a deliberate value (a blank template), not a missing one. */
      allowEmpty?: boolean;
      /** null is a value (a field.set that clears the field). */
      nullable?: boolean;
      placeholders?: PlaceholderScope;
    })
  | (FieldBase & { type: 'integer'; min: number; max: number; default?: number })
  | (FieldBase & { type: 'url'; maxLength: number })
  /** A content item of the account, by id. */
  | (FieldBase & { type: 'item' })
  | (FieldBase & { type: 'choice'; options: readonly string[] })
  /** An ISO 8601 duration such as PT1M or P1D. */
  | (FieldBase & { type: 'duration' })
  /** A date-time with a time zone. */
  | (FieldBase & { type: 'datetime' })
  /** Any JSON value (a condition's value may be a string, a list or null). */
  | (FieldBase & { type: 'json' });

export interface KindSchema {
  kind: string;
  /** The palette's name for it. */
  label: string;
  /** One line in the palette. */
  description: string;
  fields: readonly ConfigField[];
  /**
   * Fields of which exactly one must be given (a wait: `duration` or `until`); each is declared
   * with required: false.
   */
  oneOf?: readonly [string, ...string[]];
}

/** A config problem: the field at fault (null: the config as a whole) and a message saying why. */
export interface ConfigProblem {
  field: string | null;
  message: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// P1D, PT2H, PT30S, P1Y2M3W4DT5H6M7.5S: designators in order, at least one, a T only before time parts.
export const DURATION_RE = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;
export const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function checkField(f: ConfigField, v: unknown): string | null {
  const at = `config.${f.name}`;
  switch (f.type) {
    case 'text':
      if (v === null && f.nullable) return null;
      if (typeof v !== 'string') return `${at} must be a string`;
      if (!f.allowEmpty && v.trim() === '') return `${at} must not be empty`;
      if (v.length > f.maxLength) return `${at} must be at most ${f.maxLength} characters`;
      if (f.placeholders === 'contact' && v !== null) {
        // Rendered by Mustache at send time: one that cannot be read would fail every run there.
        const bad = templateProblem(v);
        if (bad) return `${at} ${bad}`;
      }
      return null;
    case 'integer':
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < f.min || v > f.max) return `${at} must be an integer from ${f.min} to ${f.max}`;
      return null;
    case 'url': {
      if (typeof v !== 'string') return `${at} must be a string`;
      if (v.trim() === '') return `${at} must not be empty`;
      if (v.length > f.maxLength) return `${at} must be at most ${f.maxLength} characters`;
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        return `${at} must be an http(s) URL`;
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return `${at} must be an http(s) URL`;
      if (u.username || u.password) return `${at} must not carry a user name or password`;
      return null;
    }
    case 'item':
      return typeof v === 'string' && UUID_RE.test(v) ? null : `${at} must be a content item id (a UUID)`;
    case 'choice':
      return typeof v === 'string' && f.options.includes(v) ? null : `${at} must be one of ${f.options.join(', ')}`;
    case 'duration':
      return typeof v === 'string' && DURATION_RE.test(v) ? null : `${at} must be an ISO 8601 duration such as PT1M or P1D, got ${JSON.stringify(v)}`;
    case 'datetime':
      return typeof v === 'string' && DATETIME_RE.test(v) && !Number.isNaN(Date.parse(v))
        ? null
        : `${at} must be a date-time with a time zone, got ${JSON.stringify(v)}`;
    case 'json':
      return null;
    default: {
      const never: never = f;
      throw new Error(`unknown field type ${JSON.stringify(never)}`);
    }
  }
}

/** The first problem with `config` under `schema`, or null: unknown fields, missing and invalid ones, a broken one-of. */
export function checkConfig(schema: KindSchema, config: Record<string, unknown>): ConfigProblem | null {
  const names = schema.fields.map((f) => f.name);
  for (const k of Object.keys(config)) {
    if (!names.includes(k)) return { field: k, message: `config.${k} is not a known field (fields: ${names.join(', ')})` };
  }
  for (const f of schema.fields) {
    const v = config[f.name];
    if (v === undefined) {
      if (f.required) return { field: f.name, message: f.type === 'text' || f.type === 'url' ? `config.${f.name} must be a string` : `config.${f.name} is required` };
      continue;
    }
    const bad = checkField(f, v);
    if (bad) return { field: f.name, message: bad };
  }
  if (schema.oneOf) {
    const given = schema.oneOf.filter((k) => config[k] !== undefined);
    if (given.length !== 1) {
      return { field: given[1] ?? schema.oneOf[0], message: `needs exactly one of ${schema.oneOf.map((k) => `config.${k}`).join(' or ')}` };
    }
  }
  return null;
}

/** The `{{name}}` placeholders a template uses, each once, in order of first use. */
export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{\{\{?\s*([A-Za-z0-9][A-Za-z0-9_.-]{0,63})\s*\}?\}\}/g)].map((m) => m[1]!))]; // group 1 is required
}
