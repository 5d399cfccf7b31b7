// Shared set-up for the automation engine tests: accounts, users, projects and contacts from a
// fixture; automations with ad-hoc step lists written as publishing writes them (the row plus its
// version 1); runs inserted as enrollment inserts them (status running, due now, NOTIFY).
import { afterAll, afterEach, beforeAll } from 'vitest';
import { configWith, loadConfig, type Config, type EngineConfig } from '../../../src/config.js';
import { freshDb, type TestDb } from '../../helpers/db.js';
import type { Db } from '../../../src/db/db.js';
import { seedFixture } from '../../../src/fixtures/load.js';
import { uuidv7 } from '../../../src/lib/ids.js';
import { RUNS_CHANNEL } from '../../../src/queue/channels.js';
import { createEngine, type Engine } from '../../../src/engine/engine.js';

export interface World {
  acme: string;
  globex: string;
  users: { olivia: string; sam: string };
  site: string;
  plain: string;
  globexSite: string;
  contacts: { ann: string };
}

export async function seedWorld(db: Db): Promise<World> {
  const seeded = await seedFixture(
    db,
    {
      accounts: [
        {
          ref: 'acme',
          name: 'Acme',
          credit_micros: 50_000_000,
          users: [
            { ref: 'olivia', email: 'olivia@acme.test', role: 'owner', name: 'Olivia Owner' },
            { ref: 'sam', email: 'sam@acme.test', role: 'member', name: 'Sam Member' },
          ],
          projects: [
            { ref: 'site', name: 'Site', workmgmt_prefix: 'WEB' },
            { ref: 'plain', name: 'Plain', settings: { sms_consent_required: false } },
          ],
          contacts: [{ ref: 'ann', email: 'ann@example.org', first_name: 'Ann', last_name: 'Lee', phone: '+15550100001', sms_consent: 'granted' }],
        },
        {
          ref: 'globex',
          name: 'Globex',
          users: [{ ref: 'gina', email: 'gina@globex.test', role: 'owner', name: 'Gina' }],
          projects: [{ ref: 'site', name: 'Globex site' }],
        },
      ],
    },
    { erasureSecret: Buffer.from('t') },
  );
  const a = seeded.accounts.acme;
  return {
    acme: a.id,
    globex: seeded.accounts.globex.id,
    users: { olivia: a.users.olivia, sam: a.users.sam },
    site: a.projects.site,
    plain: a.projects.plain,
    globexSite: seeded.accounts.globex.projects.site,
    contacts: { ann: a.contacts.ann },
  };
}

export interface Step {
  id: string;
  name?: string;
  type: string;
  config?: Record<string, unknown>;
  next?: string;
  branches?: Record<string, string>;
}

/** An automation with its published version 1 (or a draft with none). */
export async function insertAutomation(
  db: Db,
  accountId: string,
  projectId: string,
  steps: Step[],
  opts: { status?: 'published' | 'paused'; label?: string } = {},
): Promise<string> {
  const id = uuidv7();
  const trigger = { type: 'manual', label: opts.label ?? 'Enrolled by hand', config: {} };
  const full = steps.map((s) => ({ name: s.id, config: {}, ...s }));
  await db.query(
    `insert into automations (account_id, id, project_id, name, status, trigger, steps, published_version)
     values ($1, $2, $3, 'Test automation', $4, $5, $6, 1)`,
    [accountId, id, projectId, opts.status ?? 'published', JSON.stringify(trigger), JSON.stringify(full)],
  );
  await db.query(
    `insert into automation_versions (account_id, automation_id, version, trigger, steps) values ($1, $2, 1, $3, $4)`,
    [accountId, id, JSON.stringify(trigger), JSON.stringify(full)],
  );
  return id;
}

let n = 0;
export interface ContactFields {
  email?: string | null;
  first_name?: string;
  last_name?: string;
  phone?: string | null;
  do_not_contact?: boolean;
  email_opt_out?: boolean;
  sms_consent?: 'granted' | 'none' | 'revoked';
  sms_stopped?: boolean;
  lifecycle_stage?: string;
  tags?: string[];
}

export async function insertContact(db: Db, accountId: string, f: ContactFields = {}): Promise<string> {
  const id = uuidv7();
  const email = f.email === undefined ? `c${++n}-${id.slice(-6)}@example.org` : f.email;
  await db.query(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, phone, do_not_contact, email_opt_out,
                           sms_consent, sms_stopped, lifecycle_stage, tags)
     values ($1, $2, $3, lower($3), $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      accountId, id, email, f.first_name ?? 'Pat', f.last_name ?? 'Doe', f.phone === undefined ? '+15550109999' : f.phone,
      f.do_not_contact ?? false, f.email_opt_out ?? false, f.sms_consent ?? 'granted', f.sms_stopped ?? false,
      f.lifecycle_stage ?? null, f.tags ?? [],
    ],
  );
  return id;
}

/** What enrollment does: a run due now, and a NOTIFY on commit. */
export async function enroll(
  db: Db,
  accountId: string,
  automationId: string,
  contactId: string | null,
  opts: { test?: boolean; testerEmail?: string; keyId?: string } = {},
): Promise<string> {
  const id = uuidv7();
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, test, tester_email, key_id, run_at)
       values ($1, $2, $3, $4, 'running', 'test', 1, $5, $6, $7, now())`,
      [accountId, id, automationId, contactId, opts.test ?? false, opts.testerEmail ?? null, opts.keyId ?? null],
    );
    await tx.query(`select pg_notify($1, '')`, [RUNS_CHANNEL]);
  });
  return id;
}

export interface RunRow {
  status: string;
  error: string | null;
  failed_step_id: string | null;
  next_at: Date | null;
  finished_at: Date | null;
  run_at: Date;
  attempt: number;
  lease_owner: string | null;
}

export async function runRow(db: Db, runId: string): Promise<RunRow> {
  const rows = await db.query<RunRow>(
    `select status, error, failed_step_id, next_at, finished_at, run_at, attempt, lease_owner from automation_runs where id = $1`,
    [runId],
  );
  return rows[0];
}

export interface StepRow {
  seq: number;
  step_id: string;
  name: string;
  type: string;
  status: string;
  error: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  output: Record<string, unknown> | null;
}

export async function stepRows(db: Db, runId: string): Promise<StepRow[]> {
  return db.query<StepRow>(
    `select seq, step_id, name, type, status, error, started_at, finished_at, output from automation_run_steps where run_id = $1 order by seq`,
    [runId],
  );
}

export interface OutboxRow {
  channel: string;
  to_address: string;
  subject: string | null;
  body: string;
  step_id: string;
  effect_key: string;
}

export async function outbox(db: Db, runId: string): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    `select channel, to_address, subject, body, step_id, effect_key from outbox where automation_run_id = $1 order by created_at, to_address`,
    [runId],
  );
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitForRun(db: Db, runId: string, want: string | ((r: RunRow) => boolean), timeoutMs = 60_000): Promise<RunRow> {
  const ok = typeof want === 'function' ? want : (r: RunRow) => r.status === want;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await runRow(db, runId);
    if (row && ok(row)) return row;
    if (Date.now() > deadline) throw new Error(`run ${runId} is ${row?.status} (${row?.error}) after ${timeoutMs} ms`);
    await sleep(15);
  }
}

export function testConfig(engine: Partial<EngineConfig> = {}): Config {
  const base = loadConfig({});
  return configWith({ engine: { ...base.engine, leaseMs: 2_000, pollMs: 50, ...engine } });
}

export function startEngine(db: Db, engines: Engine[], engine: Partial<EngineConfig> = {}): Promise<Engine> {
  const e = createEngine(db, testConfig(engine));
  engines.push(e);
  return e.start().then(() => e);
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * The usual frame of an engine test file: a fresh database with the world seeded before the tests,
 * the engines a test started stopped after it, the database closed at the end. Read `t` and `w`
 * inside tests (they are set in beforeAll).
 */
export function engineTestFile(): { readonly t: TestDb; readonly w: World; readonly engines: Engine[] } {
  const state = { t: null as TestDb | null, w: null as World | null, engines: [] as Engine[] };
  beforeAll(async () => {
    state.t = await freshDb();
    state.w = await seedWorld(state.t.db);
  });
  afterEach(async () => {
    await Promise.all(state.engines.splice(0).map((e) => e.stop()));
  });
  afterAll(() => state.t?.close());
  return {
    get t() {
      return state.t!;
    },
    get w() {
      return state.w!;
    },
    engines: state.engines,
  };
}
