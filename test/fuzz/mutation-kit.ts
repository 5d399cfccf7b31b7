// What the mutations share: their types, small helpers over a request, and the fingerprint the
// server gives a keyed request (to know when a reused key must be refused).
import type { ApiDocument, JsonSchema, Param } from './document.js';
import type { Prng } from './prng.js';
import { pathOf, type FuzzRequest } from './request.js';
import type { World } from './world.js';

/** A keyed request that succeeded, and its answer (for replays and reused keys). */
export interface Keyed {
  req: FuzzRequest;
  status: number;
  body: string;
}

export interface Ctx {
  doc: ApiDocument;
  world: World;
  rng: Prng;
  keyed: Keyed[];
}

export interface Mutation {
  name: string;
  weight: number;
  applies: (r: FuzzRequest, c: Ctx) => boolean;
  apply: (r: FuzzRequest, c: Ctx) => void;
}

export const queryParams = (r: FuzzRequest): Param[] => r.op.params.filter((p) => p.in === 'query');
export const queryOf = (r: FuzzRequest, pred: (p: Param) => boolean) => queryParams(r).filter(pred);
export const setQuery = (r: FuzzRequest, name: string, value: string) => {
  r.query = r.query.filter(([k]) => k !== name);
  r.query.push([name, value]);
};
export const dropCursor = (r: FuzzRequest) => (r.query = r.query.filter(([k]) => k !== 'cursor'));
export const jsonBody = (r: FuzzRequest): Record<string, unknown> | null =>
  r.body?.kind === 'json' && r.body.value && typeof r.body.value === 'object' && !Array.isArray(r.body.value)
    ? (r.body.value as Record<string, unknown>)
    : null;
export const bodyProps = (r: FuzzRequest): Record<string, JsonSchema> => r.op.body?.schema.properties ?? {};
export const uuidPathParams = (r: FuzzRequest) => r.op.params.filter((p) => p.in === 'path' && p.schema.format === 'uuid');
export const isWrite = (r: FuzzRequest) => r.op.method !== 'GET';
/** The JSON value's type, as a schema names it. */
export const hasStringSchema = (s: JsonSchema) => s.type === 'string' || (s.anyOf ?? []).some((b: JsonSchema) => b.type === 'string' && !b.enum);
export const stringFields = (r: FuzzRequest) =>
  Object.entries(bodyProps(r)).filter(([, s]) => hasStringSchema(s) || (s.type === 'array' && s.items?.type === 'string') || (s.anyOf ?? []).some((b: JsonSchema) => b.type === 'array'));

/** A query parameter whose value is any text (no enum, format or integer): q, email, label. */
export const freeText = (p: Param) => p.schema.type === 'string' && !p.schema.enum && !p.schema.format && p.name !== 'cursor' && !/^\^/.test(p.schema.pattern ?? '');

export const SINGLE_LINE_FIELDS = new Set(['first_name', 'last_name', 'title', 'tags']);

export function isArrayField(s: JsonSchema): boolean {
  return s.type === 'array' || (s.anyOf ?? []).some((b: JsonSchema) => b.type === 'array');
}

export function limited(s: JsonSchema): boolean {
  const bs: JsonSchema[] = Array.isArray(s.anyOf) ? s.anyOf : [s];
  return bs.some((b) => b.maxLength !== undefined || b.minLength || b.maxItems !== undefined || b.minItems || Array.isArray(b.enum) || b.pattern);
}

export function outOfRange(s: JsonSchema, c: Ctx): unknown {
  const bs: JsonSchema[] = (Array.isArray(s.anyOf) ? s.anyOf : [s]).filter((b: JsonSchema) => limited(b));
  const b = c.rng.pick(bs);
  const options: unknown[] = [];
  if (b.maxLength !== undefined) options.push('x'.repeat(b.maxLength + 1), 'é'.repeat(b.maxLength + 1));
  if (b.minLength) options.push('');
  if (b.maxItems !== undefined) options.push(Array.from({ length: b.maxItems + 1 }, (_, i) => (b.items?.format === 'uuid' ? c.rng.uuid() : `t${i}`)));
  if (b.minItems) options.push([]);
  if (Array.isArray(b.enum)) options.push('nope', String(b.enum[0]).toUpperCase());
  if (b.pattern) options.push('abc', '++', '');
  if (b.items?.minLength) options.push(['']);
  if (b.uniqueItems) options.push(['dup', 'dup']);
  return c.rng.pick(options);
}


/** What the server fingerprints: method, path with ids in lower case, canonical JSON body ({} when none). */
export function fingerprintOf(r: FuzzRequest): string {
  const canon = (v: unknown): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canon(o[k])}`).join(',')}}`;
  };
  let body: unknown = {};
  if (r.body?.kind === 'json') body = r.body.value;
  else if (r.body?.kind === 'raw') {
    // Sent as text: the server fingerprints what it parsed (an empty body is {}).
    const text = String(r.body.payload);
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      body = `raw:${text}`;
    }
  }
  return `${r.method} ${pathOf(r).toLowerCase()}\n${canon(body)}`;
}

