// Request validation: two Ajv instances, because the spec treats the parts differently. Query
// strings and path params arrive as text and are coerced ("25" → 25); bodies are JSON and are
// never coerced ("false" is not false). Unknown properties are refused, never dropped.
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { isUnstorableText, printable, SINGLE_LINE_TEXT, textProblem, UNSTORABLE_TEXT } from '../lib/text.js';
import { missingIdempotencyKey } from '../idempotency/index.js';
import { ApiError } from '../domain/errors.js';
// The format of single-line text fields (names, titles, tags…); every other body string is multi-line text.
import { SINGLE_LINE } from './schemas.js';

const Ajv = AjvModule.default ?? AjvModule;
const addFormats = addFormatsModule.default ?? addFormatsModule;


function makeAjv(coerce: boolean) {
  const ajv = new Ajv({
    coerceTypes: coerce,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  addFormats(ajv, ['uuid', 'date-time', 'date', 'email', 'uri']);
  // ajv-formats' uuid also admits a `urn:uuid:` prefix, which PostgreSQL's uuid type refuses (a
  // 500 instead of 400 invalid_id): ids are the bare 8-4-4-4-12 form only.
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  // ajv-formats' date-time admits a leap second (23:59:60), year 0000 and, through an offset, a
  // UTC year past 9999; its date admits year 0000. None is a moment JS or the stores can hold (a
  // 500 further on), so both formats also require a real moment in years 1 to 9999: every route
  // taking a date or date-time parameter refuses them with the schema's own 400 invalid_parameter.
  for (const name of ['date-time', 'date'] as const) {
    const base = ajv.formats[name];
    ajv.addFormat(name, { type: 'string', validate: (v: string) => formatAccepts(base as AjvFormat, v) && isRealMoment(v) });
  }
  // A field a schema marks `format: single-line` (src/lib/text.ts). Unstorable text passes here so
  // that the check below names it for what it is.
  ajv.addFormat(SINGLE_LINE, { type: 'string', validate: (v: string) => isUnstorableText(v) || textProblem(v, 'single-line') === null });
  return ajv;
}

type FormatCheck = RegExp | ((v: string) => boolean) | string | boolean;
type AjvFormat = FormatCheck | { validate: FormatCheck } | undefined;

function formatAccepts(f: AjvFormat, v: string): boolean {
  const check = typeof f === 'object' && f !== null && !(f instanceof RegExp) ? f.validate : f;
  if (check instanceof RegExp) return check.test(v);
  if (typeof check === 'function') return check(v) === true;
  return false;
}

function isRealMoment(v: string): boolean {
  const t = Date.parse(v);
  if (Number.isNaN(t)) return false;
  const year = new Date(t).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

const textAjv = makeAjv(true);
const bodyAjv = makeAjv(false);

/** An error in Ajv's shape, so validationToApiError maps it like any other. */
const fault = (instancePath: string, keyword: string, message: string) => [{ keyword, instancePath, params: {}, message }];

// Query values are text that Ajv coerces with Number(): it would take 0x10, 1e1, 0b11, " 5" or
// "+5" as integers. An integer parameter is written in decimal digits, nothing else.
const DECIMAL = /^-?\d{1,15}$/;

function integerProperties(schema: object): string[] {
  const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(props).filter(([, p]) => p.type === 'integer').map(([k]) => k);
}

// Text no store can hold (src/lib/text.ts) is a value no field or parameter can take: refused here
// for every route instead of failing in the store (a 500) or being altered. Body strings are also
// text someone will read: at least multi-line text (no control characters but tab and line breaks);
// fields marked single-line were held to that stricter rule by their format.

/** The JSON pointer of the first string (value or key) in data that breaks the rule, with the rule's message. */
function badTextAt(data: unknown, check: (s: string) => string | null, path = ''): { at: string; problem: string } | null {
  if (typeof data === 'string') {
    const problem = check(data);
    return problem === null ? null : { at: path, problem };
  }
  if (Array.isArray(data)) {
    for (let i = 0; i < data.length; i++) {
      const bad = badTextAt(data[i], check, `${path}/${i}`);
      if (bad !== null) return bad;
    }
    return null;
  }
  if (data && typeof data === 'object') {
    for (const [k, v] of Object.entries(data)) {
      const problem = check(k);
      if (problem !== null) return { at: `${path}/${printable(k)}`, problem };
      const bad = badTextAt(v, check, `${path}/${k}`);
      if (bad !== null) return bad;
    }
  }
  return null;
}

const storable = (s: string): string | null => (isUnstorableText(s) ? UNSTORABLE_TEXT : null);
const bodyText = (s: string): string | null => textProblem(s, 'multi-line');

/**
 * Compiled on a route's first request, not when the route is registered: compiling the schemas of
 * every route took about half a second of each start (bench 14), most of it for routes a process
 * may never serve. Ajv caches by schema, so a schema shared by routes compiles once.
 */
export function validatorCompiler({ schema, httpPart }: { schema: object; httpPart?: string }) {
  let compiled: ReturnType<typeof bodyAjv.compile> | null = null;
  const integers = httpPart === 'querystring' ? integerProperties(schema) : [];
  return (data: unknown) => {
    const validate = (compiled ??= (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));
    if (httpPart === 'querystring' && data && typeof data === 'object') {
      const q = data as Record<string, unknown>;
      for (const k of integers) {
        if (typeof q[k] === 'string' && !DECIMAL.test(q[k])) return { error: fault(`/${k}`, 'type', 'must be an integer') as unknown as Error };
      }
    }
    if (!validate(data)) return { error: validate.errors as unknown as Error };
    const bad = badTextAt(data, httpPart === 'body' ? bodyText : storable);
    if (bad !== null) return { error: fault(bad.at, 'text', bad.problem) as unknown as Error };
    return { value: data };
  };
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** `/contact_ids/3` → `contact_ids`; `/trigger/label` → `trigger.label`: the field as a client names it. */
function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter((p) => p !== '' && !/^\d+$/.test(p));
  if (extra) parts.push(extra);
  return parts.join('.');
}

function describe(e: AjvError): string {
  if (e.keyword === 'format' && e.params.format === 'uuid') return 'must be a UUID';
  if (e.keyword === 'format' && e.params.format === SINGLE_LINE) return SINGLE_LINE_TEXT;
  if (e.keyword === 'enum') return `must be one of ${(e.params.allowedValues as unknown[]).map(String).join(', ')}`;
  return e.message ?? 'is not valid';
}

/** Turns fastify's validation failure into the spec's error for that part of the request. */
export function validationToApiError(errors: FastifySchemaValidationError[], context: string): ApiError {
  const e = errors[0] as unknown as AjvError;
  if (context === 'params') {
    const name = fieldPath(e.instancePath) || 'id';
    // Most path ids are UUIDs; a work item key (PREFIX-123) is the exception the spec allows.
    const form = e.keyword === 'format' && e.params?.format === 'uuid' ? 'is not a valid UUID' : 'is not in the form this endpoint takes';
    return new ApiError('invalid_id', `The ${name} in the path ${form}.`, { param: name });
  }
  if (context === 'querystring') {
    if (e.keyword === 'additionalProperties') {
      const p = String(e.params.additionalProperty);
      return new ApiError('unknown_parameter', `This endpoint does not take the query parameter ${p}.`, { param: p });
    }
    const p = fieldPath(e.instancePath);
    if (e.keyword === 'format' && e.params.format === 'uuid') {
      return new ApiError('invalid_id', `The query parameter ${p} must be a UUID.`, { param: p });
    }
    return new ApiError('invalid_parameter', `The query parameter ${p} ${describe(e)}.`, { param: p });
  }
  if (context === 'headers') {
    if (e.keyword === 'required' && e.params.missingProperty === 'idempotency-key') return missingIdempotencyKey();
    const p = fieldPath(e.instancePath, e.keyword === 'required' ? String(e.params.missingProperty) : undefined);
    return new ApiError('invalid_parameter', `The header ${p} ${describe(e)}.`, { param: p });
  }
  // body
  if (e.instancePath === '' && e.keyword === 'type') {
    return new ApiError('invalid_body', 'The body must be a JSON object.');
  }
  if (e.keyword === 'additionalProperties') {
    const p = fieldPath(e.instancePath, String(e.params.additionalProperty));
    return new ApiError('unknown_field', `This endpoint does not take the field ${p}.`, { param: p });
  }
  if (e.keyword === 'required') {
    const p = fieldPath(e.instancePath, String(e.params.missingProperty));
    return new ApiError('missing_field', `The field ${p} is required.`, { param: p });
  }
  const p = fieldPath(e.instancePath);
  return new ApiError('invalid_field', `The field ${p} ${describe(e)}.`, { param: p });
}
