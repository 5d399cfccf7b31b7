// The rules every answer must keep, whatever was sent: no 5xx; a status the document lists for
// the operation; an error body from the closed catalogue (status and type as catalogued, the
// request id of the header); a success body valid against the document's schema; X-Request-Id on
// every answer and RateLimit-* on every successful metered one. Plus the answer the one fault in
// the request calls for, unless that expectation is a pending fix.
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';
import type { ApiDocument } from './document.js';
import { PENDING_FIXES, type PendingFix } from './pending.js';
import { REQUIRED_BY_SPEC, type FuzzRequest } from './request.js';

export interface Violation {
  check: string;
  detail: string;
}

/** How each pending expectation fared: met (the fix is in) or not. */
export type PendingTally = Map<PendingFix, { met: number; unmet: number }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CATALOGUE = ERROR_CATALOGUE as Record<string, { status: number; type: string }>;

export function errorBodyViolations(res: LightMyRequestResponse, doc: ApiDocument): Violation[] {
  const out: Violation[] = [];
  let body: any;
  try {
    body = res.json();
  } catch {
    return [{ check: 'error-body-json', detail: `error answer is not JSON: ${res.body.slice(0, 200)}` }];
  }
  const e = body?.error;
  if (!e || typeof e !== 'object' || Object.keys(body).length !== 1) return [{ check: 'error-body-shape', detail: res.body.slice(0, 300) }];
  const entry = CATALOGUE[e.code];
  if (!entry) out.push({ check: 'error-code-in-catalogue', detail: `code ${JSON.stringify(e.code)} is not in src/http/errors.ts` });
  else {
    if (entry.status !== res.statusCode) out.push({ check: 'error-code-status', detail: `${e.code} is catalogued ${entry.status}, answered ${res.statusCode}` });
    if (entry.type !== e.type) out.push({ check: 'error-code-type', detail: `${e.code} is catalogued ${entry.type}, answered ${e.type}` });
    if (!doc.errorCodes[e.code]) out.push({ check: 'error-code-documented', detail: `${e.code} is not in the document's x-error-codes` });
  }
  const allowed = new Set(['type', 'code', 'message', 'param', 'resource_id', 'request_id']);
  const extra = Object.keys(e).filter((k) => !allowed.has(k));
  if (extra.length) out.push({ check: 'error-body-shape', detail: `unexpected fields ${extra.join(', ')}` });
  if (typeof e.message !== 'string' || e.message === '') out.push({ check: 'error-body-shape', detail: 'message missing' });
  for (const k of ['param', 'resource_id'] as const) {
    if (k in e && typeof e[k] !== 'string') out.push({ check: 'error-body-shape', detail: `${k} is ${JSON.stringify(e[k])}` });
  }
  // "param names it" for these; resource_id only on contact_exists, where it is the contact's id.
  if (['unknown_parameter', 'missing_field', 'unknown_field', 'invalid_field', 'invalid_id', 'missing_idempotency_key', 'invalid_idempotency_key'].includes(e.code) && !e.param) {
    out.push({ check: 'error-param', detail: `${e.code} without param` });
  }
  if ((e.code === 'contact_exists') !== ('resource_id' in e) || ('resource_id' in e && !UUID.test(e.resource_id))) {
    out.push({ check: 'error-resource-id', detail: `${e.code} with resource_id ${JSON.stringify(e.resource_id)}` });
  }
  if (e.request_id !== res.headers['x-request-id']) out.push({ check: 'error-request-id', detail: `body ${e.request_id} vs header ${String(res.headers['x-request-id'])}` });
  return out;
}

function rateLimitViolations(res: LightMyRequestResponse): Violation[] {
  const h = (n: string) => res.headers[n];
  const [limit, remaining, reset] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((n) => Number(h(n)));
  const ok =
    [h('ratelimit-limit'), h('ratelimit-remaining'), h('ratelimit-reset')].every((v) => typeof v === 'string' && /^\d+$/.test(v)) &&
    limit >= 1 && remaining <= limit && reset >= 1 && reset <= 60;
  return ok ? [] : [{ check: 'ratelimit-headers', detail: `limit=${String(h('ratelimit-limit'))} remaining=${String(h('ratelimit-remaining'))} reset=${String(h('ratelimit-reset'))}` }];
}

/** The statuses the document lists for what the request reached (the whole path for a wrong method). */
function documentedStatuses(r: FuzzRequest, doc: ApiDocument): Set<number> | null {
  if (r.rawPath !== undefined) return null; // not a documented path
  if (r.method === r.op.method) return r.op.statuses;
  const all = new Set<number>();
  for (const op of doc.operations) if (op.path === r.op.path) op.statuses.forEach((s) => all.add(s));
  return all;
}

export function check(r: FuzzRequest, res: LightMyRequestResponse, doc: ApiDocument, pending: PendingTally): Violation[] {
  const out: Violation[] = [];
  const status = res.statusCode;
  if (status >= 500) out.push({ check: 'no-5xx', detail: `answered ${status}` });

  const rid = res.headers['x-request-id'];
  if (typeof rid !== 'string' || !UUID.test(rid)) out.push({ check: 'x-request-id', detail: `X-Request-Id is ${JSON.stringify(rid)}` });
  else if (r.headers['x-request-id'] && rid === r.headers['x-request-id']) out.push({ check: 'x-request-id', detail: 'the caller chose the request id' });

  const documented = documentedStatuses(r, doc);
  if (documented && !documented.has(status)) out.push({ check: 'status-documented', detail: `${status} is not documented for ${r.op.id} (${[...documented].join(', ')})` });

  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) {
    out.push({ check: 'json-answer', detail: `Content-Type ${String(res.headers['content-type'])}` });
  }
  const cors = Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('access-control-'));
  if (cors.length) out.push({ check: 'no-cors', detail: cors.join(', ') });
  if (status === 429 && !/^[1-9]\d*$/.test(String(res.headers['retry-after']))) {
    out.push({ check: 'retry-after', detail: `429 with Retry-After ${String(res.headers['retry-after'])}` });
  }
  if (status >= 400) out.push(...errorBodyViolations(res, doc));
  if (status === 405) {
    const allow = String(res.headers.allow ?? '').split(/,\s*/);
    // At a documented path Allow lists its documented methods; elsewhere (a path made up by a
    // mutation) at least one method, never the one refused.
    const want = r.rawPath === undefined ? (doc.methodsAt.get(r.op.path) ?? []) : [];
    if (allow.filter(Boolean).length === 0) out.push({ check: 'allow-header', detail: 'no Allow header' });
    if (want.some((m) => !allow.includes(m)) || allow.includes(r.method)) out.push({ check: 'allow-header', detail: `Allow: ${res.headers.allow}` });
  }
  if (status >= 200 && status < 300 && r.rawPath === undefined && r.method === r.op.method) {
    const validate = r.op.success.get(status);
    if (!validate) out.push({ check: 'success-body-schema', detail: `no schema for ${status}` });
    else {
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = Symbol('not JSON');
      }
      if (!validate(body)) out.push({ check: 'success-body-schema', detail: `${JSON.stringify(validate.errors?.slice(0, 3))} in ${res.body.slice(0, 300)}` });
    }
    if (r.op.secured) out.push(...rateLimitViolations(res));
  }

  // A rate limit may come before anything else (the per-key limit precedes validation, page
  // conversion turns come before the handler's checks): a 429 is never held against a request.
  if (r.expect && !(status === 429 && r.expect.status !== 429)) {
    const e = r.expect;
    let met = status === e.status;
    let got = `${status}`;
    if (status >= 400) {
      const err = safeJson(res)?.error ?? {};
      got += ` ${err.code}${err.param !== undefined ? ` (param ${err.param})` : ''}`;
      if (e.code && err.code !== e.code) met = false;
      if (e.param !== undefined && err.param !== e.param) met = false;
    }
    if (e.pending) tally(pending, e.pending, met);
    if (!met && !(e.pending && PENDING_FIXES.has(e.pending))) {
      out.push({ check: 'expected-answer', detail: `wanted ${e.status} ${e.code ?? ''}${e.param !== undefined ? ` (param ${e.param})` : ''}, got ${got}: ${res.body.slice(0, 300)}` });
    }
  }

  if (r.replayOf && status >= 200 && status < 300) {
    if (status !== r.replayOf.status || res.body !== r.replayOf.body || res.headers['idempotent-replay'] !== 'true') {
      out.push({ check: 'idempotent-replay', detail: `first ${r.replayOf.status} ${r.replayOf.body.slice(0, 200)}; replay ${status} ${res.body.slice(0, 200)} replay-header=${String(res.headers['idempotent-replay'])}` });
    }
  } else if (r.replayOf && status !== 429) {
    out.push({ check: 'idempotent-replay', detail: `a replay was answered ${status}: ${res.body.slice(0, 200)}` });
  }

  out.push(...documentConsistency(r, res, pending));
  return out;
}

/** The document says what the server does: a header it requires is required, a body it does without is optional. */
function documentConsistency(r: FuzzRequest, res: LightMyRequestResponse, pending: PendingTally): Violation[] {
  const out: Violation[] = [];
  if (r.rawPath !== undefined || r.method !== r.op.method) return out;
  const code = res.statusCode >= 400 ? safeJson(res)?.error?.code : null;
  const keyParam = r.op.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  if (code === 'missing_idempotency_key' || (REQUIRED_BY_SPEC.has(r.op.id) && keyParam)) {
    const met = Boolean(keyParam?.required);
    tally(pending, 'openapi-idempotency-key-required', met);
    if (!met && !PENDING_FIXES.has('openapi-idempotency-key-required')) {
      out.push({ check: 'document-required-header', detail: `${r.op.id} requires Idempotency-Key but the document marks it optional` });
    }
  }
  if (r.op.body && r.body === null && res.statusCode >= 200 && res.statusCode < 300) {
    const met = !r.op.body.required;
    tally(pending, 'openapi-startrun-body-optional', met);
    if (!met && !PENDING_FIXES.has('openapi-startrun-body-optional')) {
      out.push({ check: 'document-optional-body', detail: `${r.op.id} succeeds without a body but the document marks its body required` });
    }
  }
  return out;
}

function tally(p: PendingTally, name: PendingFix, met: boolean): void {
  const t = p.get(name) ?? { met: 0, unmet: 0 };
  if (met) t.met++;
  else t.unmet++;
  p.set(name, t);
}

function safeJson(res: LightMyRequestResponse): any {
  try {
    return res.json();
  } catch {
    return null;
  }
}
