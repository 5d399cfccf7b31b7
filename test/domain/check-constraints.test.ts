// The database's enumerated CHECK constraints and the domain's `as const` arrays say the same
// thing: every CHECK of the form `col = ANY (ARRAY[...])` (how PostgreSQL stores `col in (...)`)
// on the tables of the current schema is mapped here to its domain array and allows exactly its
// values. A new enumerated CHECK that is not mapped fails too, so a migration cannot add a value
// list the code does not share.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_STATES, ACCOUNT_TIERS, SUBSCRIPTIONS, USER_ROLES } from '../../src/domain/account.js';
import {
  AUTOMATION_RUN_STATUSES,
  AUTOMATION_STATUSES,
  AUTOMATION_STEP_STATUSES,
  REENROLL_RULES,
} from '../../src/domain/automation.js';
import { LIFECYCLE_STAGES, SMS_CONSENT } from '../../src/domain/contact.js';
import { IDEMPOTENCY_STATUSES } from '../../src/domain/key.js';
import { MESSAGE_CHANNELS, OUTBOX_STATUSES } from '../../src/domain/message.js';
import { ITEM_KINDS } from '../../src/domain/project.js';
import { HISTORY_KINDS, SPRINT_STATES, WM_STATUSES, WM_TYPES } from '../../src/domain/work-item.js';
import { RUN_STATUSES, RUN_STEP_STATUSES, RUN_TRIGGERS, WORKFLOW_STATUSES } from '../../src/domain/workflow.js';
import { AUDIT_ACTOR_KINDS, USER_TOKEN_PURPOSES } from '../../src/domain/hub.js';
import { freshDb, type TestDb } from '../helpers/db.js';

/** table.column → the domain array its CHECK must allow, value for value. */
const DOMAIN: Record<string, readonly string[]> = {
  'accounts.tier': ACCOUNT_TIERS,
  'accounts.state': ACCOUNT_STATES,
  'accounts.subscription': SUBSCRIPTIONS,
  'users.role': USER_ROLES,
  'content_items.kind': ITEM_KINDS,
  'workflows.status': WORKFLOW_STATUSES,
  'workflow_runs.status': RUN_STATUSES,
  'workflow_runs.trigger': RUN_TRIGGERS,
  'workflow_run_steps.status': RUN_STEP_STATUSES,
  'automations.status': AUTOMATION_STATUSES,
  'automations.reenroll': REENROLL_RULES,
  'automation_versions.reenroll': REENROLL_RULES,
  'automation_runs.status': AUTOMATION_RUN_STATUSES,
  'automation_run_steps.status': AUTOMATION_STEP_STATUSES,
  'contacts.lifecycle_stage': LIFECYCLE_STAGES,
  'contacts.sms_consent': SMS_CONSENT,
  'wm_sprints.state': SPRINT_STATES,
  'wm_items.type': WM_TYPES,
  'wm_items.status': WM_STATUSES,
  'wm_item_history.kind': HISTORY_KINDS,
  'idempotency_keys.status': IDEMPOTENCY_STATUSES,
  'outbox.channel': MESSAGE_CHANNELS,
  'outbox.status': OUTBOX_STATUSES,
  'user_tokens.purpose': USER_TOKEN_PURPOSES,
  'audit_log.actor_kind': AUDIT_ACTOR_KINDS,
};

interface CheckRow {
  tbl: string;
  conname: string;
  def: string;
}

// `CHECK ((status = ANY (ARRAY['a'::text, 'b'::text])))`; the column may be quoted ("trigger").
const ENUM_CHECK = /^CHECK \(\(?"?([a-z_][a-z0-9_]*)"? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)?\)$/;
const SINGLE_CHECK = /^CHECK \(\("?([a-z_][a-z0-9_]*)"? = ('(?:[^']|'')*'::text)\)\)$/;
const VALUE = /^'((?:[^']|'')*)'::(?:text|character varying)$/;

let t: TestDb;
let checks: CheckRow[];
beforeAll(async () => {
  t = await freshDb();
  // The current schema's tables, wherever the migrations put them (public or their own schema).
  checks = await t.db.query<CheckRow>(
    `select r.relname as tbl, c.conname, pg_get_constraintdef(c.oid) as def
       from pg_constraint c
       join pg_class r on r.oid = c.conrelid
      where c.contype = 'c' and c.connamespace = (select oid from pg_namespace where nspname = current_schema())
      order by r.relname, c.conname`,
  );
});
afterAll(() => t?.close());

/** The enumerated CHECKs as table.column → allowed values; any other list-shaped CHECK is an error. */
function enumeratedChecks(rows: CheckRow[]): { found: Map<string, string[]>; unreadable: string[] } {
  const found = new Map<string, string[]>();
  const unreadable: string[] = [];
  for (const r of rows) {
    const listy = /\bANY\b|\bARRAY\[|\bIN \(/i.test(r.def);
    // `col in ('one')` is stored as `col = 'one'::text`: a list of one value.
    const single = SINGLE_CHECK.exec(r.def);
    if (!listy && !single) continue;
    const m = single ?? ENUM_CHECK.exec(r.def);
    const values = m?.[2].split(', ').map((v) => VALUE.exec(v)?.[1]?.replaceAll("''", "'"));
    if (!m || !values || values.some((v) => v === undefined)) {
      unreadable.push(`${r.tbl}.${r.conname}: ${r.def}`);
      continue;
    }
    const key = `${r.tbl}.${m[1]}`;
    if (found.has(key)) unreadable.push(`${key}: a second enumerated CHECK (${r.conname})`);
    found.set(key, values as string[]);
  }
  return { found, unreadable };
}

describe('enumerated CHECK constraints match the domain', () => {
  it('reads the constraints of the migrated schema', () => {
    expect(checks.length).toBeGreaterThan(Object.keys(DOMAIN).length);
  });

  it('every enumerated CHECK is of a form this test reads', () => {
    expect(enumeratedChecks(checks).unreadable).toEqual([]);
  });

  it('every enumerated CHECK is mapped to a domain array, and every mapping to a CHECK', () => {
    const { found } = enumeratedChecks(checks);
    expect([...found.keys()].sort()).toEqual(Object.keys(DOMAIN).sort());
  });

  it.each(Object.entries(DOMAIN))('%s allows exactly the domain values', (column, values) => {
    const allowed = enumeratedChecks(checks).found.get(column);
    expect(allowed, `no enumerated CHECK on ${column}`).toBeDefined();
    expect([...allowed!].sort(), `${column}: the CHECK's values vs the domain array`).toEqual([...values].sort());
    expect(new Set(values).size, `${column}: the domain array repeats a value`).toBe(values.length);
  });
});
