// The fuzzer's world: the seeded accounts (the README's demo account, made roomy for thousands
// of requests, plus a second account whose ids must look unknown, and accounts whose keys are
// refused), and the pools of real ids, keys and cursors that requests are built from. Pools grow
// as the fuzzer creates things (runs, contacts, pages), so later requests reach those too.
import fs from 'node:fs';
import type { Db } from '../../src/db/db.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { SCOPES } from '../../src/lib/scopes.js';
import { account, seed } from '../http/fixtures.js';

const DEMO = new URL('../../examples/demo.json', import.meta.url);

/** Ids by the kind of thing they name. */
export type Kind = 'workflow' | 'run' | 'automation' | 'automationRun' | 'project' | 'item' | 'contact' | 'wmProject' | 'sprint' | 'user';

export interface Cursor {
  opId: string;
  /** The path and the other query parameters it was given out for. */
  path: string;
  query: Record<string, string>;
  cursor: string;
}

export interface World {
  accountId: string;
  keys: { main: string; narrow: string; revoked: string; expired: string; other: string; suspended: string; lapsed: string };
  /** Ids of the fuzzed account, by kind. */
  ids: Record<Kind, string[]>;
  /** Ids of the other account, by kind: each must answer exactly as an unknown id. */
  otherIds: Record<Kind, string[]>;
  /** Work item keys (PREFIX-n) of the fuzzed account and of the other one. */
  workKeys: string[];
  otherWorkKeys: string[];
  emails: string[];
  cursors: Cursor[];
}

function demoAccount(ref: string): Record<string, any> {
  const a = JSON.parse(fs.readFileSync(DEMO, 'utf8')).accounts[0];
  a.ref = ref;
  a.name = `Fuzz ${ref}`;
  for (const u of a.users) {
    delete u.password; // hashing passwords is slow and no /v1 request uses them
    u.email = u.email.replace('@demo.example', `@${ref}.example`);
  }
  // Roomy limits: the per-key and run limits would otherwise answer most requests with 429.
  a.tier = 'enterprise';
  a.limits = { requests_per_minute: 1_000_000, run_starts_per_minute: 1_000_000, concurrent_runs: 1_000_000 };
  a.credit_micros = 1_000_000_000;
  const all = [...SCOPES];
  a.keys = [
    { ref: 'main', name: 'fuzz: all scopes', scopes: all },
    { ref: 'narrow', name: 'fuzz: usage only', scopes: ['usage:read'] },
    { ref: 'revoked', name: 'fuzz: revoked', scopes: all, revoked: true },
    { ref: 'expired', name: 'fuzz: expired', scopes: all, expires_at: '2020-01-01T00:00:00Z' },
  ];
  return a;
}

function idsOf(r: AccountSeedResult, extraWm: string[]): Record<Kind, string[]> {
  return {
    workflow: Object.values(r.workflows),
    run: [],
    automation: Object.values(r.automations),
    automationRun: [],
    project: Object.values(r.projects),
    item: Object.values(r.items),
    contact: Object.values(r.contacts),
    wmProject: extraWm,
    sprint: Object.values(r.sprints),
    user: Object.values(r.users),
  };
}

export async function buildWorld(db: Db): Promise<World> {
  const allScopes = [...SCOPES];
  const res = await seed(
    db,
    demoAccount('fuzz'),
    demoAccount('other'),
    account('suspended', { state: 'suspended', keys: [{ scopes: allScopes }] }),
    account('lapsed', { subscription: 'lapsed', keys: [{ scopes: allScopes }] }),
  );
  const [me, other] = [res.fuzz, res.other];
  // The demo's work-management area is opened in the `site` project only.
  const ids = idsOf(me, [me.projects.site]);
  const otherIds = idsOf(other, [other.projects.site]);
  const demoKeys = ['WEB-1', 'WEB-2', 'WEB-3', 'WEB-4'];
  return {
    accountId: me.id,
    keys: {
      main: me.keys.main,
      narrow: me.keys.narrow,
      revoked: me.keys.revoked,
      expired: me.keys.expired,
      other: other.keys.main,
      suspended: res.suspended.keys.main,
      lapsed: res.lapsed.keys.main,
    },
    ids,
    otherIds,
    workKeys: demoKeys,
    otherWorkKeys: demoKeys,
    emails: ['ann@example.org', 'bob@example.org', 'cara@example.org', 'gone@example.org'],
    cursors: [],
  };
}

/** Remembers what a successful answer names, so later requests use it. */
export function learn(world: World, opId: string, path: string, query: Record<string, string>, body: any): void {
  const add = (k: Kind, id: unknown) => {
    if (typeof id === 'string' && !world.ids[k].includes(id)) world.ids[k].push(id);
  };
  switch (opId) {
    case 'startRun':
      add('run', body.id);
      break;
    case 'enrollContacts':
      for (const r of body.runs ?? []) add('automationRun', r.id);
      break;
    case 'createContact':
      add('contact', body.id);
      if (typeof body.email === 'string') world.emails.push(body.email);
      break;
    case 'createPage':
      add('item', body.id);
      break;
    case 'listWorkflowRuns':
      for (const r of body.data ?? []) add('run', r.id);
      break;
    case 'listAutomationRuns':
      for (const r of body.data ?? []) add('automationRun', r.id);
      break;
  }
  if (typeof body?.next_cursor === 'string') {
    const { cursor: _drop, ...rest } = query;
    if (world.cursors.length > 200) world.cursors.splice(0, 100);
    world.cursors.push({ opId, path, query: rest, cursor: body.next_cursor });
  }
}
