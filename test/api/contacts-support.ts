// The world the contact write tests share: an enterprise account `acme` (so one key may make many
// requests a minute) with a writer and a reader key, a member `adam`, contacts in every state
// (assigned, do-not-contact and opted out, erased, archived), another account and a lapsed one;
// plus the request helpers and the contact_exists check both files use.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/db.js';
import { seedFixture, type AccountSeedResult } from '../../src/fixtures/load.js';
import type { TestApp } from '../helpers/app.js';
import { account, bearer } from '../http/fixtures.js';

const SCOPES = ['contacts:read', 'contacts:write'] as const;

/** Seeds the world; `extra` adds projects and automations to acme. */
export async function seedContactsWorld(
  t: TestApp,
  erasureSecret: Buffer,
  extra: { projects?: string[]; automations?: unknown[] } = {},
): Promise<Record<string, AccountSeedResult>> {
  const base = account('acme', {
    tier: 'enterprise', // these files make more than the team tier's 120 requests a minute with one key
    projects: extra.projects ?? [],
    keys: [{ ref: 'main', scopes: [...SCOPES] }, { ref: 'reader', scopes: ['contacts:read'] }],
  });
  const fixture = {
    accounts: [
      {
        ...base,
        users: [...(base.users as object[]), { ref: 'adam', email: 'adam@acme.example', role: 'member' }],
        automations: extra.automations ?? [],
        contacts: [
          { ref: 'ann', email: 'ann@example.org', first_name: 'Ann', last_name: 'Lee', phone: '+15550100', lifecycle_stage: 'lead', sms_consent: 'granted', tags: ['a'], assignee: 'adam' },
          { ref: 'bob', email: 'bob@example.org', first_name: 'Bob', do_not_contact: true, email_opt_out: true },
          { ref: 'cy', email: 'cy@example.org', first_name: 'Cy' },
          { ref: 'di', email: 'di@example.org' },
          { ref: 'gone', email: 'Gone@Example.org', erased: true },
          { ref: 'old', email: 'old@example.org', archived: true },
        ],
      },
      {
        ...account('other', { keys: [{ ref: 'main', scopes: [...SCOPES] }] }),
        users: [{ ref: 'owner', email: 'owner@other.example', role: 'owner' }, { ref: 'eve', email: 'eve@other.example', role: 'member' }],
        contacts: [{ ref: 'theirs', email: 'theirs@example.org', first_name: 'Theirs' }],
      },
      {
        ...account('lapsed', { subscription: 'ended', keys: [{ ref: 'main', scopes: [...SCOPES] }] }),
        contacts: [{ ref: 'kim', email: 'kim@example.org' }],
      },
    ],
  };
  return (await seedFixture(t.db, fixture, { erasureSecret })).accounts;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** POST, PATCH and GET of contacts with a key (default: the one `defaultKey` gives). */
export function contactRequests(app: () => TestApp, defaultKey: () => string) {
  const send = (method: 'POST' | 'PATCH', url: string, body: unknown, key: string, headers: Record<string, string>) =>
    app().app.inject({ method, url, headers: { ...bearer(key), ...JSON_HEADERS, ...headers }, payload: JSON.stringify(body) });
  return {
    post: (body: unknown, key = defaultKey(), headers: Record<string, string> = {}) => send('POST', '/v1/contacts', body, key, headers),
    patch: (id: string, body: unknown, key = defaultKey(), headers: Record<string, string> = {}) => send('PATCH', `/v1/contacts/${id}`, body, key, headers),
    get: (id: string, key = defaultKey()) => app().app.inject({ method: 'GET', url: `/v1/contacts/${id}`, headers: bearer(key) }),
    row: async (id: string) => (await app().db.query<Record<string, unknown>>('select * from contacts where id = $1', [id]))[0],
  };
}

/** 409 contact_exists carries resource_id (expectError refuses it, so this checks the body itself). */
export function expectExists(res: LightMyRequestResponse, holder: string): void {
  expect(res.statusCode, res.body).toBe(409);
  const e = res.json().error;
  expect(Object.keys(e).sort()).toEqual(['code', 'message', 'param', 'request_id', 'resource_id', 'type']);
  expect(e).toMatchObject({ type: 'conflict', code: 'contact_exists', param: 'email', resource_id: holder, request_id: res.headers['x-request-id'] });
}

/**
 * Real concurrency (PostgreSQL): another transaction runs `hold` and keeps it uncommitted until the
 * request under test is seen waiting on a lock, then commits; resolves with the request's answer.
 */
export async function heldWhile(
  t: TestApp,
  hold: (tx: Queryable) => Promise<unknown>,
  request: () => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  let release!: () => void;
  let holding!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const held = new Promise<void>((r) => (holding = r));
  const other = t.db.transaction(async (tx) => {
    await hold(tx);
    holding();
    await gate;
  });
  await held;
  const pending = request();
  for (let i = 0; i < 200; i++) {
    const [{ n }] = await t.db.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (n > 0) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  release();
  await other;
  return pending;
}
