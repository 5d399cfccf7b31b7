// One reusable idempotency mechanism (docs/architecture.md §8) for run starts, enrollments, and the
// optional keys on page and contact creation.
//   phase 1: claim (account, key) in its own statement; a live duplicate is answered from the row;
//   phase 2: the work and its stored answer commit in one transaction;
//   a refusal (ApiError) or failure rolls the work back and gives the key back.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Queryable, TransactionOptions } from '../db/db.js';
import { ApiError } from '../domain/errors.js';
import { claimKey, completeKey, readKey, releaseKey } from './store.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_RE = /^[\x21-\x7e]{8,64}$/;

/** Canonical JSON: object keys sorted, so {"a":1,"b":2} and {"b":2,"a":1} fingerprint alike. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path as the resource it names: the route's pattern with its decoded path parameters, UUIDs
 * in lower case. /v1/workflows/ABC…/runs and /v1/workflows/abc…/runs start runs of the same
 * workflow, so they are the same request (a retry that normalised the id still replays). For a
 * lower-case id this is the path as sent, as fingerprints stored before this rule were made.
 */
export function canonicalPath(routeUrl: string, params: Record<string, string>): string {
  return routeUrl.replace(/:(\w+)/g, (_m, name: string) => {
    const v = params[name] ?? '';
    return UUID_RE.test(v) ? v.toLowerCase() : encodeURIComponent(v);
  });
}

/** method + path + canonical body; an empty body and {} are the same request. */
export function fingerprint(method: string, path: string, body: unknown): string {
  const b = body === undefined ? {} : body;
  return createHash('sha256').update(`${method} ${path}\n${canonicalJson(b)}`).digest('hex');
}

/**
 * 400 missing_idempotency_key. Routes that require the header declare it required in their schema
 * (so the OpenAPI document says so); request validation answers this for it, not a generic 400.
 */
export const missingIdempotencyKey = (): ApiError =>
  new ApiError('missing_idempotency_key', `This request needs an ${IDEMPOTENCY_HEADER} header (8 to 64 printable characters; a UUID is suitable).`, {
    param: IDEMPOTENCY_HEADER,
  });

/** The Idempotency-Key header, validated; null when absent and optional. */
export function idempotencyKeyOf(request: FastifyRequest, required: boolean): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) {
    if (!required) return null;
    throw missingIdempotencyKey();
  }
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_RE.test(value)) {
    throw new ApiError('invalid_idempotency_key', `${IDEMPOTENCY_HEADER} must be 8 to 64 printable characters without spaces.`, {
      param: IDEMPOTENCY_HEADER,
    });
  }
  return value;
}

export interface Answer<T> {
  status: number;
  body: T;
}

export interface IdempotencyOptions {
  db: Db;
  accountId: string;
  lockTimeoutMs: number;
  required: boolean;
  /**
   * `work` only runs statements on its tx (src/db/db.ts TransactionOptions): a deadlock or
   * serialization failure runs it again instead of answering 500.
   */
  replayable?: { name: string };
}

/**
 * Runs `work` at most once per (account, Idempotency-Key). A replay sends the stored status and
 * body exactly as first sent, with `Idempotent-Replay: true` (request id and rate-limit headers
 * stay the current request's: they are never stored).
 */
export async function idempotent<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: IdempotencyOptions,
  work: (tx: Queryable) => Promise<Answer<T>>,
): Promise<T> {
  const key = idempotencyKeyOf(request, opts.required);
  if (key === null) {
    const answer = await opts.db.transaction(work, txOptions(opts));
    reply.code(answer.status);
    return answer.body;
  }
  const [urlPath = ''] = request.url.split('?');
  const path = canonicalPath(request.routeOptions.url ?? urlPath, (request.params ?? {}) as Record<string, string>);
  const fp = fingerprint(request.method, path, request.body);
  if (!(await claimKey(opts.db, opts.accountId, key, fp))) {
    const row = await readKey(opts.db, opts.accountId, key);
    if (!row) return idempotent(request, reply, opts, work); // expired and reaped in between: claim again
    if (row.fingerprint !== fp) {
      throw new ApiError('idempotency_key_reused', `This ${IDEMPOTENCY_HEADER} was already used for a different request.`, {
        param: IDEMPOTENCY_HEADER,
      });
    }
    if (row.status === 'done') {
      reply.code(row.response_status!).header('idempotent-replay', 'true');
      if (row.response_headers) reply.headers(row.response_headers);
      return row.response_body as T;
    }
    if (Date.now() - row.locked_at.getTime() > opts.lockTimeoutMs) {
      throw new ApiError(
        'idempotency_outcome_unknown',
        'The first request with this key did not finish; it is never run again. Check whether it happened, and use a new key if it did not.',
        { param: IDEMPOTENCY_HEADER },
      );
    }
    throw new ApiError('idempotency_in_progress', 'A request with this key is still being handled; retry with the same key in a few seconds.', {
      param: IDEMPOTENCY_HEADER,
      headers: { 'retry-after': '2' },
    });
  }
  let answer: Answer<T>;
  try {
    answer = await opts.db.transaction(async (tx) => {
      const a = await work(tx);
      await completeKey(tx, opts.accountId, key, fp, a.status, a.body, {});
      return a;
    }, txOptions(opts));
  } catch (err) {
    // The work rolled back: nothing happened, so the key is not used up.
    await releaseKey(opts.db, opts.accountId, key, fp).catch(() => {});
    throw err;
  }
  reply.code(answer.status);
  return answer.body;
}

function txOptions(opts: IdempotencyOptions): TransactionOptions | undefined {
  return opts.replayable ? { replayable: true, name: opts.replayable.name } : undefined;
}
