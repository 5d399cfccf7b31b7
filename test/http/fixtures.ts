// Small builders for the HTTP tests: inline fixture accounts (the public fixture format), seeding
// them, Bearer headers, and one assertion for the spec's error body.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import type { Scope } from '../../src/lib/scopes.js';

export const ERASURE_SECRET = Buffer.from('test-secret');

export interface KeyOpts {
  ref?: string;
  scopes?: Scope[];
  expires_at?: string | null;
  revoked?: boolean;
}

export interface AccountOpts {
  tier?: 'solo' | 'team' | 'business' | 'enterprise';
  state?: 'active' | 'suspended' | 'closed';
  subscription?: 'active' | 'lapsed' | 'ended';
  api_open?: boolean;
  limits?: { requests_per_minute?: number; run_starts_per_minute?: number; concurrent_runs?: number };
  /** Keys by ref; default one key `main` with workflows:read. */
  keys?: KeyOpts[];
  projects?: string[];
  workflows?: Array<{ ref: string; name?: string; description?: string; status?: string; project?: string }>;
}

/** One fixture account with an owner (who creates the keys). */
export function account(ref: string, o: AccountOpts = {}): Record<string, unknown> {
  const keys = (o.keys ?? [{}]).map((k, i) => ({
    ref: k.ref ?? (i === 0 ? 'main' : `k${i}`),
    name: `key ${k.ref ?? i}`,
    scopes: k.scopes ?? ['workflows:read'],
    ...(k.expires_at !== undefined ? { expires_at: k.expires_at } : {}),
    ...(k.revoked !== undefined ? { revoked: k.revoked } : {}),
  }));
  const out: Record<string, unknown> = {
    ref,
    name: `Account ${ref}`,
    users: [{ ref: 'owner', email: `owner@${ref}.example`, role: 'owner' }],
    keys,
    projects: (o.projects ?? []).map((p) => ({ ref: p, name: `Project ${p}` })),
    workflows: (o.workflows ?? []).map((w) => ({ name: w.ref, ...w })),
  };
  for (const f of ['tier', 'state', 'subscription', 'api_open', 'limits'] as const) {
    if (o[f] !== undefined) out[f] = o[f];
  }
  return out;
}

export async function seed(db: Db, ...accounts: Array<Record<string, unknown>>): Promise<Record<string, AccountSeedResult>> {
  const res = await seedFixture(db, { accounts }, { erasureSecret: ERASURE_SECRET });
  return res.accounts;
}

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

/**
 * The response is the spec's error: status, exact type and code, a non-empty message, `param` only
 * when expected (never null), no resource_id, and request_id equal to the X-Request-Id header.
 */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  type: string,
  code: string,
  param?: string,
): { type: string; code: string; message: string; param?: string; request_id: string } {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['error']);
  const e = body.error;
  const keys = ['code', 'message', 'request_id', 'type', ...(param !== undefined ? ['param'] : [])].sort();
  expect(Object.keys(e).sort()).toEqual(keys);
  expect(e.type).toBe(type);
  expect(e.code).toBe(code);
  if (param !== undefined) expect(e.param).toBe(param);
  expect(typeof e.message).toBe('string');
  expect(e.message.length).toBeGreaterThan(0);
  expect(typeof e.request_id).toBe('string');
  expect(e.request_id).toBe(res.headers['x-request-id']);
  return e;
}

/** No CORS header of any kind. */
export function expectNoCors(res: LightMyRequestResponse): void {
  expect(Object.keys(res.headers).filter((h) => h.toLowerCase().startsWith('access-control-'))).toEqual([]);
}

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Follows next_cursor from `first` (a URL or a query string such as `?limit=7`) to the end and
 * returns every page; `between` runs after each page (e.g. to insert rows mid-walk). Stops after
 * maxPages so a cursor that never ends fails the test instead of hanging it.
 */
export async function walkPages<P extends { next_cursor: string | null }>(
  fetchPage: (urlOrQuery: string) => Promise<P>,
  first: string,
  opts: { maxPages?: number; between?: () => Promise<void> } = {},
): Promise<P[]> {
  const pages: P[] = [];
  const sep = first.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  do {
    const p: P = await fetchPage(cursor ? `${first}${sep}cursor=${encodeURIComponent(cursor)}` : first);
    pages.push(p);
    cursor = p.next_cursor;
    if (opts.between) await opts.between();
  } while (cursor && pages.length < (opts.maxPages ?? 100));
  return pages;
}
