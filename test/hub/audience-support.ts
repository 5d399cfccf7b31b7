// What the hub's contacts, messages and automations tests share: the world of
// test/api/contacts-support.ts (acme with an owner and a member `adam`, contacts in every state,
// `other`, a lapsed account) plus automations, sessions for each, and rows the engine and the
// sender would write (automation runs, outbox messages), made directly so each test controls them.
import { expect } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { ERASURE_SECRET } from '../../src/secrets/one-way.js';
import { loadSecrets } from '../../src/secrets/store.js';
import type { TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { seedContactsWorld } from '../api/contacts-support.js';

const step = (id: string, type: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Step ${id}`,
  type,
  config: type === 'email.send' ? { subject: 'Welcome', body: 'Hello {{first_name}}' } : {},
  ...extra,
});

export const AUTOMATIONS = [
  { ref: 'welcome', name: 'Welcome', project: 'p1', status: 'published', trigger: { type: 'contact.created', label: 'Contact is created' }, steps: [step('e1', 'email.send')] },
  { ref: 'held', name: 'Held', project: 'p1', status: 'paused', trigger: { type: 'manual', label: 'Enrolled by hand' }, steps: [step('n1', 'notify.team')] },
  { ref: 'drafty', name: 'Drafty', project: 'p1', trigger: { type: 'manual', label: 'Enrolled by hand' }, steps: [step('e1', 'email.send')] },
  { ref: 'empty', name: 'Empty', project: 'p1' },
];

export interface World {
  s: Record<string, AccountSeedResult>;
  owner: HubClient;
  member: HubClient;
  other: HubClient;
  lapsed: HubClient;
}

export async function audienceWorld(t: TestApp): Promise<World> {
  const [erasure] = await loadSecrets(t.db, ERASURE_SECRET);
  const s = await seedContactsWorld(t, erasure.secret, { projects: ['p1'], automations: AUTOMATIONS });
  return {
    s,
    owner: await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.owner, email: 'owner@acme.example' }),
    member: await hubClient(t, { accountId: s.acme.id, userId: s.acme.users.adam, email: 'adam@acme.example' }),
    other: await hubClient(t, { accountId: s.other.id, userId: s.other.users.owner, email: 'owner@other.example' }),
    lapsed: await hubClient(t, { accountId: s.lapsed.id, userId: s.lapsed.users.owner, email: 'owner@lapsed.example' }),
  };
}

let at = Date.parse('2026-03-01T12:00:00.000Z');
/** Increasing times, so list order is known. */
export const nextTime = () => new Date((at += 60_000)).toISOString();

export async function insertRun(
  t: TestApp,
  accountId: string,
  automationId: string,
  contactId: string | null,
  status = 'waiting',
  o: { test?: boolean } = {},
): Promise<string> {
  const id = uuidv7();
  await t.db.query(
    `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, test, version, started_at, finished_at)
     values ($1, $2, $3, $4, $5, 'Contact is created', $6, 1, $7, case when $5 in ('running', 'waiting') then null else $7::timestamptz end)`,
    [accountId, id, automationId, contactId, status, o.test ?? false, nextTime()],
  );
  return id;
}

export async function insertMessage(
  t: TestApp,
  accountId: string,
  o: { runId?: string | null; channel?: string; status?: string; to?: string; error?: string | null },
): Promise<string> {
  const id = uuidv7();
  await t.db.query(
    `insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, automation_run_id, step_id, created_at, error)
     values ($1, $2, $3, $4, $5, 'SECRET-SUBJECT', 'SECRET-BODY', $6, $7, 'e1', $8, $9)`,
    [accountId, id, o.channel ?? 'email', o.status ?? 'sent', o.to ?? 'ann@example.org', `<${id}@test>`, o.runId ?? null, nextTime(), o.error ?? null],
  );
  return id;
}

export async function auditOf(t: TestApp, accountId: string, objectId: string): Promise<Array<{ action: string; actor_label: string; detail: Record<string, unknown> }>> {
  return t.db.query(`select action, actor_label, detail from audit_log where account_id = $1 and object_id = $2 order by at, id`, [accountId, objectId]);
}

/** A state change refused before it happens: without the CSRF token, and from a foreign Origin. */
export async function expectCsrfRefused(c: HubClient, method: 'POST' | 'PATCH', url: string, payload: unknown): Promise<void> {
  const noToken = await c.request({ method, url, payload: payload as object, headers: { 'x-csrf-token': '' } });
  expect(noToken.statusCode, noToken.body).toBe(403);
  expect(noToken.json().error.code).toBe('csrf_failed');
  const foreign = await c.request({ method, url, payload: payload as object, headers: { origin: 'https://evil.example' } });
  expect(foreign.statusCode, foreign.body).toBe(403);
  expect(foreign.json().error.code).toBe('csrf_failed');
}
