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
  /** What the builder asks for when the field is left empty ("Write the prompt for this AI block"). */
  ask?: string;
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
      /** Email addresses separated by commas (an approval's people to tell); empty is none. */
      emails?: { max: number };
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

/**
 * What is wrong with one field's value, as data: the engine and the automations word it for the
 * file's author (issueMessage), the workflow builder for a person (src/domain/workflow-check.ts).
 */
export type FieldIssue =
  | { reason: 'not_string' }
  | { reason: 'missing' }
  | { reason: 'empty' }
  | { reason: 'too_long'; max: number; length: number }
  | { reason: 'range'; min: number; max: number }
  | { reason: 'not_http' }
  | { reason: 'credentials' }
  | { reason: 'not_item' }
  | { reason: 'choice'; options: readonly string[] }
  | { reason: 'duration'; got: unknown }
  | { reason: 'datetime'; got: unknown }
  | { reason: 'template'; detail: string }
  /** An entry of an email list that is not an address, or too many of them. */
  | { reason: 'not_email'; got: string }
  | { reason: 'too_many'; max: number }
  /** A config key no field declares. */
  | { reason: 'unknown'; names: readonly string[] }
  /** A one-of broken: none or several of `fields` given. */
  | { reason: 'one_of'; fields: readonly string[] };

// One address: something@domain.tld, no spaces or commas (the list is comma separated).
const EMAIL_RE = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

/** The addresses of a comma-separated list, trimmed, blanks dropped, in lower case (each once). */
export function emailList(v: string): string[] {
  return [...new Set(v.split(',').map((e) => e.trim().toLowerCase()).filter((e) => e !== ''))];
}

function emailsIssue(v: string, max: number): FieldIssue | null {
  const list = emailList(v);
  const bad = list.find((e) => !EMAIL_RE.test(e));
  if (bad !== undefined) return { reason: 'not_email', got: bad };
  return list.length > max ? { reason: 'too_many', max } : null;
}

function fieldIssue(f: ConfigField, v: unknown): FieldIssue | null {
  switch (f.type) {
    case 'text':
      if (v === null && f.nullable) return null;
      if (typeof v !== 'string') return { reason: 'not_string' };
      if (!f.allowEmpty && v.trim() === '') return { reason: 'empty' };
      if (v.length > f.maxLength) return { reason: 'too_long', max: f.maxLength, length: v.length };
      if (f.placeholders === 'contact' && v !== null) {
        // Rendered by Mustache at send time: one that cannot be read would fail every run there.
        const bad = templateProblem(v);
        if (bad) return { reason: 'template', detail: bad };
      }
      if (f.emails) return emailsIssue(v, f.emails.max);
      return null;
    case 'integer':
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < f.min || v > f.max) return { reason: 'range', min: f.min, max: f.max };
      return null;
    case 'url': {
      if (typeof v !== 'string') return { reason: 'not_string' };
      if (v.trim() === '') return { reason: 'empty' };
      if (v.length > f.maxLength) return { reason: 'too_long', max: f.maxLength, length: v.length };
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        return { reason: 'not_http' };
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return { reason: 'not_http' };
      if (u.username || u.password) return { reason: 'credentials' };
      return null;
    }
    case 'item':
      return typeof v === 'string' && UUID_RE.test(v) ? null : { reason: 'not_item' };
    case 'choice':
      return typeof v === 'string' && f.options.includes(v) ? null : { reason: 'choice', options: f.options };
    case 'duration':
      return typeof v === 'string' && DURATION_RE.test(v) ? null : { reason: 'duration', got: v };
    case 'datetime':
      return typeof v === 'string' && DATETIME_RE.test(v) && !Number.isNaN(Date.parse(v)) ? null : { reason: 'datetime', got: v };
    case 'json':
      return null;
    default: {
      const never: never = f;
      throw new Error(`unknown field type ${JSON.stringify(never)}`);
    }
  }
}

/** An issue in the words a definition file's author gets (`config.url must be an http(s) URL`). */
export function issueMessage(field: string | null, issue: FieldIssue): string {
  const at = `config.${field ?? ''}`;
  switch (issue.reason) {
    case 'not_string':
      return `${at} must be a string`;
    case 'missing':
      return `${at} is required`;
    case 'empty':
      return `${at} must not be empty`;
    case 'too_long':
      return `${at} must be at most ${issue.max} characters`;
    case 'range':
      return `${at} must be an integer from ${issue.min} to ${issue.max}`;
    case 'not_http':
      return `${at} must be an http(s) URL`;
    case 'credentials':
      return `${at} must not carry a user name or password`;
    case 'not_item':
      return `${at} must be a content item id (a UUID)`;
    case 'choice':
      return `${at} must be one of ${issue.options.join(', ')}`;
    case 'duration':
      return `${at} must be an ISO 8601 duration such as PT1M or P1D, got ${JSON.stringify(issue.got)}`;
    case 'datetime':
      return `${at} must be a date-time with a time zone, got ${JSON.stringify(issue.got)}`;
    case 'template':
      return `${at} ${issue.detail}`;
    case 'not_email':
      return `${at} must be email addresses separated by commas; ${JSON.stringify(issue.got)} is not one`;
    case 'too_many':
      return `${at} may name at most ${issue.max} addresses`;
    case 'unknown':
      return `${at} is not a known field (fields: ${issue.names.join(', ')})`;
    case 'one_of':
      return `needs exactly one of ${issue.fields.map((k) => `config.${k}`).join(' or ')}`;
  }
}

/** A name in the typographic quotes the hub's words use. */
export const quoted = (s: string) => `“${s}”`;
/** 50000 → 50,000, the same on the server and in every browser locale. */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * One field's issue in a person's words, with the field's own label: what the builders show (a
 * workflow's blocks, an automation's steps). issueMessage above is the API's and the files' wording.
 */
export function fieldWords(f: ConfigField | undefined, name: string, issue: FieldIssue): string {
  const label = f?.label ?? name;
  switch (issue.reason) {
    case 'not_string':
    case 'missing':
    case 'empty':
      return f?.ask ?? `Fill in the ${label.toLowerCase()}`;
    case 'too_long':
      return `${label} is too long: ${count(issue.length)} characters, at most ${count(issue.max)}`;
    case 'range':
      return `${label} must be a whole number from ${count(issue.min)} to ${count(issue.max)}`;
    case 'not_http':
      return `${label} must be a web address starting with http:// or https://`;
    case 'credentials':
      return `${label} must not contain a user name or password`;
    case 'not_item':
      return f?.ask ?? `Choose a content item`;
    case 'choice':
      return `Choose the ${label.toLowerCase()} (one of ${issue.options.join(', ')})`;
    case 'duration':
      return `${label} must be a length of time such as PT1M (a minute) or P1D (a day)`;
    case 'datetime':
      return `${label} must be a date and time with a time zone`;
    case 'template':
      return `${label} cannot be read: ${issue.detail}`;
    case 'not_email':
      return `${label}: “${issue.got}” is not an email address (separate addresses with commas)`;
    case 'too_many':
      return `${label}: at most ${count(issue.max)} people`;
    case 'unknown':
      return `${quoted(name)} is not a setting here (the settings: ${issue.names.join(', ')}); remove it`;
    case 'one_of':
      return `Fill in exactly one of ${issue.fields.join(' or ')}`;
  }
}

/** A config's issue: the field at fault (null: the config as a whole). */
export interface ConfigIssue {
  field: string | null;
  issue: FieldIssue;
}

/**
 * Every problem with `config` under `schema`, in order: unknown fields, then each declared field
 * (missing or invalid), then a broken one-of. The builder shows them all at once.
 */
export function configIssues(schema: KindSchema, config: Record<string, unknown>): ConfigIssue[] {
  const names = schema.fields.map((f) => f.name);
  const out: ConfigIssue[] = [];
  for (const k of Object.keys(config)) if (!names.includes(k)) out.push({ field: k, issue: { reason: 'unknown', names } });
  for (const f of schema.fields) {
    const v = config[f.name];
    if (v === undefined) {
      // A missing text reads as "must be a string": what a file's author has long been told.
      if (f.required) out.push({ field: f.name, issue: { reason: f.type === 'text' || f.type === 'url' ? 'not_string' : 'missing' } });
      continue;
    }
    const bad = fieldIssue(f, v);
    if (bad) out.push({ field: f.name, issue: bad });
  }
  if (schema.oneOf) {
    const given = schema.oneOf.filter((k) => config[k] !== undefined);
    if (given.length !== 1) out.push({ field: given[1] ?? schema.oneOf[0], issue: { reason: 'one_of', fields: schema.oneOf } });
  }
  return out;
}

/** The first problem with `config` under `schema`, or null: unknown fields, missing and invalid ones, a broken one-of. */
export function checkConfig(schema: KindSchema, config: Record<string, unknown>): ConfigProblem | null {
  const first = configIssues(schema, config)[0];
  if (!first) return null;
  return { field: first.field, message: issueMessage(first.field, first.issue) };
}

/** The `{{name}}` placeholders a template uses, each once, in order of first use. */
export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\{\{\{?\s*([A-Za-z0-9][A-Za-z0-9_.-]{0,63})\s*\}?\}\}/g)].map((m) => m[1]!))]; // group 1 is required
}
