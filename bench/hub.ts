// `npm run bench:hub`: each hub screen's one request, timed on the process users run
// (`bin/switchboard.js serve` as `npm start` runs it, default logging), with 10,000 runs and 10,000 contacts in the
// account (and 10,000 automation runs and messages), on PGlite and PostgreSQL. Sequential requests from one signed-in client (a person at
// a browser): p50 and p95 per screen, against the 100 ms p50. Also prints the initial JS
// of the built hub (gzipped). Needs `npm run build` (npm ci runs it).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { PostgresDb } from '../src/db/postgres.js';
import { seedFixture } from '../src/fixtures/load.js';
import { ROOT } from './child.js';
import { ADMIN_URL, assertLoopback, benchEntry } from './stores.js';

const RUNS = 10_000;
const CONTACTS = 10_000;
const SAMPLES = 60;
const WARM = 5;
const PASSWORD = 'bench passphrase long enough';
const log = (m: string) => process.stderr.write(`${m}\n`);

interface Seeded {
  accountId: string;
  workflowId: string;
  runId: string;
  contactId: string;
  automationId: string;
  projectId: string;
}

async function seed(db: Db): Promise<Seeded> {
  const res = await seedFixture(db, {
    accounts: [
      {
        ref: 'a',
        name: 'Hub bench',
        tier: 'enterprise',
        credit_micros: 100_000_000,
        users: [{ ref: 'o', email: 'owner@hub.bench.example', role: 'owner', password: PASSWORD, name: 'Bench Owner' }],
        keys: [{ ref: 'k', name: 'bench', scopes: ['workflows:read', 'contacts:read'], created_by: 'o' }],
        projects: [{ ref: 'p', name: 'Main' }],
        workflows: [
          { ref: 'w', name: 'Digest', project: 'p', status: 'active', blocks: [{ id: 'b1', kind: 'source.text', config: { text: 'hello' } }], edges: [] },
        ],
        automations: [
          {
            ref: 'au',
            name: 'Welcome',
            project: 'p',
            status: 'published',
            trigger: { type: 'manual', label: 'Enrolled by hand', config: {} },
            steps: [{ id: 'e1', name: 'Welcome email', type: 'email.send', config: { subject: 'Welcome', body: 'Hi.' } }],
          },
        ],
      },
    ],
  } as never, { erasureSecret: randomBytes(16) });
  const acct = res.accounts.a;
  const accountId = acct.id;
  const workflowId = acct.workflows.w;
  // 10,000 finished runs over the last 30 days, each with one step and its output.
  await db.query(
    `with r as (
       insert into workflow_runs (account_id, id, workflow_id, status, trigger, summary, created_at, started_at, finished_at, billed_micros)
       select $1, gen_random_uuid(), $2, (array['succeeded','failed','partial','cancelled'])[1 + i % 4], (array['api','manual','schedule'])[1 + i % 3],
              'Run ' || i, ts, ts, ts + interval '2 seconds', 1000
         from (select i, now() - (((i * 7919) % 43200) * interval '1 minute') as ts from generate_series(1, $3::int) i) g
       returning account_id, id, created_at
     )
     insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, finished_at, ms, output)
     select account_id, id, 0, 'b1', 'source.text', 'succeeded', created_at, created_at + interval '2 seconds', 2000, '{"text": "hello"}'::jsonb from r`,
    [accountId, workflowId, RUNS],
  );
  await db.query(
    `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, lifecycle_stage, tags, created_at, updated_at)
     select $1, gen_random_uuid(), e, lower(e), 'First' || i, 'Last' || (i % 400), 'lead', '{}', ts, ts
       from (select i, 'person' || i || '@mail' || (i % 10) || '.example' as e,
                    now() - (((i * 7919) % 525600) * interval '1 minute') as ts from generate_series(1, $2::int) i) g`,
    [accountId, CONTACTS],
  );
  // One finished automation run per contact, each with the email it sent: what Messages, an
  // automation's page and a contact's page read.
  const automationId = acct.automations.au;
  await db.query(
    `with r as (
       insert into automation_runs (account_id, id, automation_id, contact_id, status, started_by, version, started_at, finished_at, run_at)
       select c.account_id, gen_random_uuid(), $2, c.id, 'succeeded', 'manual', 1, c.created_at, c.created_at + interval '1 second', c.created_at
         from contacts c where c.account_id = $1
       returning account_id, id, contact_id, started_at
     )
     insert into outbox (account_id, id, channel, status, to_address, subject, body, message_id, automation_run_id, step_id, created_at, sent_at, run_at)
     select r.account_id, gen_random_uuid(), 'email', 'sent', c.email, 'Welcome', 'Hi.', gen_random_uuid()::text || '@bench', r.id, 'e1', r.started_at, r.started_at, r.started_at
       from r join contacts c on c.account_id = r.account_id and c.id = r.contact_id`,
    [accountId, automationId],
  );
  await db.exec('analyze');
  const [run] = await db.query<{ id: string }>(`select id from workflow_runs where account_id = $1 order by created_at desc limit 1 offset 17`, [accountId]);
  const [contact] = await db.query<{ id: string }>(`select id from contacts where account_id = $1 order by id limit 1 offset 4321`, [accountId]);
  return { accountId, workflowId, runId: run.id, contactId: contact.id, automationId, projectId: acct.projects.p };
}

/** Each screen's request (what its page loads first). */
function screens(s: Seeded): [string, string][] {
  return [
    ['session', '/hub/api/session'],
    ['runs', '/hub/api/runs'],
    ['runs ?status=failed', '/hub/api/runs?status=failed'],
    ['run', `/hub/api/runs/${s.runId}`],
    ['workflows', '/hub/api/workflows'],
    ['workflow', `/hub/api/workflows/${s.workflowId}`],
    ['contacts', '/hub/api/contacts'],
    ['contacts ?q=', '/hub/api/contacts?q=person4321'],
    ['contact', `/hub/api/contacts/${s.contactId}`],
    ['messages', '/hub/api/messages'],
    ['messages ?status=failed', '/hub/api/messages?status=failed'],
    ['automations', '/hub/api/automations'],
    ['automation', `/hub/api/automations/${s.automationId}`],
    ['content', '/hub/api/projects'],
    ['content project', `/hub/api/projects/${s.projectId}/items`],
    ['work management', '/hub/api/workmgmt/projects'],
    ['keys', '/hub/api/keys'],
    ['users', '/hub/api/users'],
    ['settings', '/hub/api/settings'],
    ['usage', '/hub/api/usage'],
    ['audit', '/hub/api/audit'],
  ];
}

function serve(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  // Executed itself, as `npm start` does: its first line gives node and the flags.
  const child = spawn(path.join(ROOT, 'bin/switchboard.js'), ['serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 120_000);
    const on = (d: Buffer) => {
      out += String(d);
      const m = /listening on (http:\/\/[^\s;]+)/.exec(out);
      if (m) {
        clearTimeout(t);
        child.stdout!.off('data', on);
        child.stdout!.resume();
        child.stderr!.resume();
        resolve({ child, base: m[1] });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', (d) => (out += String(d)));
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function measureScreens(base: string, s: Seeded): Promise<{ screen: string; status: number; p50: number; p95: number }[]> {
  const signIn = await fetch(`${base}/hub/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'owner@hub.bench.example', password: PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign-in: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0];
  const out = [];
  for (const [screen, url] of screens(s)) {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < WARM + SAMPLES; i++) {
      const t0 = performance.now();
      const r = await fetch(base + url, { headers: { cookie } });
      await r.arrayBuffer();
      status = r.status;
      if (i >= WARM) times.push(performance.now() - t0);
    }
    out.push({ screen, status, p50: pct(times, 50), p95: pct(times, 95) });
  }
  return out;
}

async function onStore(store: 'pglite' | 'postgres'): Promise<void> {
  let db: Db;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (store === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-hub-'));
    db = await openPglite({ dataDir: dir });
    env = { SWITCHBOARD_DATA_DIR: dir };
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    assertLoopback(ADMIN_URL);
    const name = `sb_bench_hub_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${name}`;
    db = new PostgresDb(u.toString(), 4);
    env = { DATABASE_URL: u.toString() };
    cleanup = async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    };
  }
  let seeded: Seeded;
  try {
    await migrate(db);
    const t0 = performance.now();
    seeded = await seed(db);
    log(`${store}: ${RUNS} runs and ${CONTACTS} contacts seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await db.close();
  }
  const { child, base } = await serve(env);
  try {
    const rows = await measureScreens(base, seeded);
    console.log(`\n${store}: one request per screen, ${SAMPLES} sequential samples, 10,000 runs and contacts`);
    console.log('| screen | status | p50 ms | p95 ms | p50 ≤ 100 ms |\n|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.screen} | ${r.status} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p50 <= 100 && r.status === 200 ? 'yes' : 'NO'} |`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await cleanup();
  }
}

async function initialJs(): Promise<void> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/web-size.mjs')], { stdio: 'inherit' });
  await new Promise((r) => child.once('exit', r));
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist/switchboard.js')) || !fs.existsSync(path.join(ROOT, 'web/dist/index.html'))) {
    throw new Error('build first: npm run build');
  }
  await initialJs();
  const only = process.argv.includes('--store') ? process.argv[process.argv.indexOf('--store') + 1] : null;
  for (const store of ['pglite', 'postgres'] as const) if (!only || only === store) await onStore(store);
}

benchEntry(import.meta.url, 'bench:hub', 900_000, main);
