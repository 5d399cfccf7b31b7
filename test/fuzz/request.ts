// One fuzz request: what it targets, what it sends, and what it must get when its one fault
// decides the answer. Built valid from the document (base), then mutated (mutations.ts).
import type { InjectOptions } from 'fastify';
import type { ApiDocument, Operation } from './document.js';
import type { Prng } from './prng.js';
import { asQueryText, pathParamKind, realId, validValue } from './values.js';
import type { World } from './world.js';
import type { PendingFix } from './pending.js';

export interface Expectation {
  status: number;
  code?: string;
  param?: string;
  /** Set when the current code is known to answer otherwise (see PENDING_FIXES). */
  pending?: PendingFix;
}

export type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; payload: string | Buffer; contentType?: string | null };

export interface FuzzRequest {
  /** The documented operation the request is built from. */
  op: Operation;
  method: string;
  /** Path parameter values (raw, encoded when the URL is made). */
  pathParams: Record<string, string>;
  /** A path that replaces the documented one (unknown routes, encoding tricks); already encoded. */
  rawPath?: string;
  query: Array<[string, string]>;
  /** Appended to the query as is (malformed percent-encoding). */
  rawQuery?: string;
  headers: Record<string, string>;
  body: Body | null;
  remoteAddress: string;
  /** Mutations applied, by name. */
  tags: string[];
  expect?: Expectation;
  /** An exact repeat of an earlier keyed request that succeeded: its answer must be replayed. */
  replayOf?: { status: number; body: string };
}

export function pathOf(r: FuzzRequest): string {
  if (r.rawPath !== undefined) return r.rawPath;
  return r.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(r.pathParams[name] ?? ''));
}

export function urlOf(r: FuzzRequest): string {
  const parts = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (r.rawQuery !== undefined) parts.push(r.rawQuery);
  return parts.length ? `${pathOf(r)}?${parts.join('&')}` : pathOf(r);
}

export function toInject(r: FuzzRequest): InjectOptions {
  const headers: Record<string, string> = { ...r.headers };
  let payload: string | Buffer | undefined;
  if (r.body?.kind === 'json') {
    payload = JSON.stringify(r.body.value);
    headers['content-type'] ??= 'application/json';
  } else if (r.body?.kind === 'raw') {
    payload = r.body.payload;
    if (r.body.contentType) headers['content-type'] = r.body.contentType;
  }
  return { method: r.method as InjectOptions['method'], url: urlOf(r), headers, payload, remoteAddress: r.remoteAddress };
}

/** What a failure report shows of the request (long values cut, the key shown by role only). */
export function describeRequest(r: FuzzRequest, keyNames: Map<string, string>): string {
  const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
  const headers = Object.fromEntries(
    Object.entries(r.headers).map(([k, v]) => [k, k === 'authorization' ? (keyNames.get(v) ?? cut(JSON.stringify(v))) : cut(v)]),
  );
  const body =
    r.body === null ? '(none)' : r.body.kind === 'json' ? cut(JSON.stringify(r.body.value)) : cut(JSON.stringify(String(r.body.payload)));
  return `${r.method} ${cut(urlOf(r))} [${r.op.id}; ${r.tags.join(', ') || 'valid'}] headers=${JSON.stringify(headers)} body=${body}`;
}

export function randomLoopback(rng: Prng): string {
  return `127.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

/** A request the document says is valid, with real ids of the fuzzed account and its full key. */
export function baseRequest(doc: ApiDocument, op: Operation, world: World, rng: Prng): FuzzRequest {
  const r: FuzzRequest = {
    op,
    method: op.method,
    pathParams: {},
    query: [],
    headers: { authorization: `Bearer ${world.keys.main}` },
    body: null,
    remoteAddress: randomLoopback(rng),
    tags: [],
  };
  for (const p of op.params) {
    if (p.in === 'path') {
      const kind = pathParamKind(op.path, p.name);
      r.pathParams[p.name] = kind === 'workKey' ? rng.pick(world.workKeys) : kind ? realId(world, rng, kind) : String(validValue(p.schema, p.name, world, rng));
    } else if (p.in === 'query' && p.name !== 'cursor' && (p.required || rng.chance(0.3))) {
      r.query.push([p.name, asQueryText(validValue(p.schema, p.name, world, rng))]);
    } else if (p.in === 'header' && p.name.toLowerCase() === 'idempotency-key') {
      // The spec requires the key on run starts and enrollments; elsewhere it is optional.
      if (p.required || REQUIRED_BY_SPEC.has(op.id) || rng.chance(0.5)) r.headers['idempotency-key'] = `fz-${rng.hex(24)}`;
    }
  }
  // A next page: a cursor this very list gave out, with the filters it was given for.
  const mine = world.cursors.filter((c) => c.opId === op.id && c.path === pathOf(r));
  if (mine.length && rng.chance(0.35)) {
    const c = rng.pick(mine);
    r.query = [...Object.entries(c.query), ['cursor', c.cursor]];
  }
  if (op.body) {
    if (op.body.schema.type === 'object' && !op.body.schema.required?.length && !op.body.required && rng.chance(0.5)) {
      r.body = null; // an optional body left out
    } else {
      const value = validValue(op.body.schema, '', world, rng) as Record<string, unknown>;
      r.body = { kind: 'json', value: fixBody(op.id, value, rng) };
    }
  }
  return r;
}

/**
 * The spec requires Idempotency-Key on these while the document (PENDING_FIXES:
 * openapi-idempotency-key-required) still says optional; the base request sends it so that their
 * 2xx paths are reached.
 */
export const REQUIRED_BY_SPEC = new Set(['startRun', 'enrollContacts']);

/** Rules the schema cannot say: a page is markdown or html, exactly one. */
function fixBody(opId: string, v: Record<string, unknown>, rng: Prng): unknown {
  if (opId === 'createPage' && v && typeof v === 'object') {
    if ('markdown' in v && 'html' in v) delete v[rng.chance(0.5) ? 'markdown' : 'html'];
    if (!('markdown' in v) && !('html' in v)) v.markdown = `# ${String(v.title ?? 'Page')}\n\nBody.`;
    if (typeof v.title === 'string' && v.title.trim() === '') v.title = 'Page';
  }
  return v;
}
