// `npm run bench:move`: backup, restore and export of an embedded store at the size issue 26
// names (100,000 workflow runs, each with a step and its output, and 100,000 contacts), with the
// commands users run (bin/switchboard.js, built by `npm run build`):
//   1. `switchboard serve` on the store, a writer making ~50 contacts a second through the API;
//   2. `switchboard backup FILE` while it serves: how long it takes, and what the writer saw
//      (latency before and during the backup, the longest wait: the time the server was held);
//   3. the server stopped; `switchboard restore FILE --data-dir NEW` into an empty directory;
//   4. `switchboard export --to postgres://…` of the original store into a new, empty database,
//      then its row counts read on PostgreSQL.
// Loopback only; every phase has a deadline. BENCH_MOVE_RUNS / BENCH_MOVE_CONTACTS change the size;
// BENCH_DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { seedFixture } from '../src/fixtures/load.js';
import { ROOT } from './child.js';
import { killAllServes, startServe } from './serve-child.js';

const RUNS = Number(process.env.BENCH_MOVE_RUNS ?? 100_000);
const CONTACTS = Number(process.env.BENCH_MOVE_CONTACTS ?? 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WRITES_PER_SECOND = 50;
/** Each command's deadline: a machine ten times slower than this one still finishes. */
const COMMAND_DEADLINE_MS = 20 * 60_000;
const BIN = path.join(ROOT, 'bin', 'switchboard.js');

const log = (m: string) => process.stderr.write(`${m}\n`);

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : e.isFile() ? fs.statSync(p).size : 0;
  }
  return n;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Runs `switchboard ARGS` as users do; its wall time and output. */
function cli(args: string[], env: Record<string, string>): Promise<{ ms: number; code: number | null; stdout: string; stderr: string }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--v8-pool-size=2', BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`switchboard ${args[0]} did not finish in ${COMMAND_DEADLINE_MS / 1000} s`));
    }, COMMAND_DEADLINE_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - t0, code, stdout, stderr });
    });
  });
}

/** The store: one account through the fixture loader, then runs, steps and contacts in bulk. */
async function buildStore(dataDir: string): Promise<string> {
  const db = await openPglite({ dataDir });
  await migrate(db);
  const seeded = await seedFixture(
    db,
    {
      accounts: [
        {
          ref: 'a',
          name: 'Move bench',
          tier: 'enterprise',
          limits: { requests_per_minute: 1_000_000 },
          users: [{ ref: 'o', email: 'o@move.bench.example', role: 'owner' }],
          keys: [{ ref: 'k', name: 'bench', scopes: ['contacts:write', 'contacts:read'] }],
          projects: [{ ref: 'p', name: 'Main' }],
          workflows: Array.from({ length: 100 }, (_, i) => ({ ref: `w${i}`, name: `Workflow ${i}`, project: 'p', status: 'active' as const })),
        },
      ],
    },
    { erasureSecret: randomBytes(16) },
  );
  const accountId = seeded.accounts.a.id;
  for (let from = 0; from < RUNS; from += 10_000) {
    const to = Math.min(RUNS, from + 10_000) - 1;
    await db.query(
      `with r as (
         insert into workflow_runs (account_id, id, workflow_id, status, trigger, summary, billed_micros, created_at, started_at, finished_at, run_at)
         select $1, gen_random_uuid(), w.id, case when i % 10 = 0 then 'failed' else 'succeeded' end, 'api', 'Ran 1 step',
                1200, now() - i * interval '1 minute', now() - i * interval '1 minute', now() - i * interval '1 minute' + interval '4 seconds',
                now() - i * interval '1 minute'
           from generate_series($2::int, $3::int) i
           join lateral (select id from workflows where account_id = $1 order by id offset (i % 100) limit 1) w on true
         returning account_id, id, created_at)
       insert into workflow_run_steps (account_id, run_id, seq, node_id, node_kind, status, started_at, finished_at, ms, output)
       select account_id, id, 0, 'sum', 'agent', 'succeeded', created_at, created_at + interval '4 seconds', 4000,
              jsonb_build_object('text', repeat('A summary of the page in three bullets. ', 6), 'tokens', 512)
         from r`,
      [accountId, from, to],
    );
  }
  for (let from = 0; from < CONTACTS; from += 10_000) {
    const to = Math.min(CONTACTS, from + 10_000) - 1;
    await db.query(
      `insert into contacts (account_id, id, email, email_normalized, first_name, last_name, lifecycle_stage, tags, created_at, updated_at)
       select $1, gen_random_uuid(), 'person' || i || '@mail' || (i % 10) || '.example', 'person' || i || '@mail' || (i % 10) || '.example',
              'Person', 'Number' || i, 'lead', '{}', now() - i * interval '1 second', now() - i * interval '1 second'
         from generate_series($2::int, $3::int) i`,
      [accountId, from, to],
    );
  }
  await db.exec('analyze');
  await db.close();
  return seeded.accounts.a.keys.k;
}

interface WriterReport {
  acknowledged: number;
  failed: number;
  latencies: number[];
}

/** ~50 POST /v1/contacts a second until stop(); the latency of each acknowledged write. */
function writer(port: number, key: string): { stop(): Promise<WriterReport>; mark(): number } {
  const report: WriterReport = { acknowledged: 0, failed: 0, latencies: [] };
  let stopped = false;
  let n = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    if (stopped) return;
    const i = n++;
    const t0 = performance.now();
    const p = fetch(`http://127.0.0.1:${port}/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `writer${i}@move.bench.example` }),
      signal: AbortSignal.timeout(60_000),
    }).then(
      async (r) => {
        await r.arrayBuffer();
        if (r.status === 201 || r.status === 200) {
          report.acknowledged++;
          report.latencies.push(performance.now() - t0);
        } else report.failed++;
      },
      () => void report.failed++,
    );
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }, 1000 / WRITES_PER_SECOND);
  return {
    mark: () => report.latencies.length,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([...inFlight]);
      return report;
    },
  };
}

const pct = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'switchboard.js'))) throw new Error('bench:move runs the built program: run `npm run build` first');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-move-'));
  const dataDir = path.join(tmp, 'data');
  const dbName = `sb_bench_move_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  let adminConnected = false;
  try {
    log(`building a store with ${RUNS} runs (and a step each) and ${CONTACTS} contacts…`);
    const t0 = performance.now();
    const key = await buildStore(dataDir);
    log(`  built in ${((performance.now() - t0) / 1000).toFixed(1)} s; pgdata ${mib(dirBytes(path.join(dataDir, 'pgdata')))}`);

    const serve = await startServe({ store: 'pglite', dataDir, rateLimit: 'memory', logFile: path.join(tmp, 'serve.log'), label: 'move', readyTimeoutMs: 5 * 60_000 });
    const w = writer(serve.port, key);
    await new Promise((r) => setTimeout(r, 5_000)); // latency before the backup, for comparison
    const before = w.mark();
    const backupFile = path.join(tmp, 'store.backup');
    const backup = await cli(['backup', backupFile], { SWITCHBOARD_DATA_DIR: dataDir });
    const during = w.mark();
    const writes = await w.stop();
    await serve.stop();
    if (backup.code !== 0) throw new Error(`backup failed: ${backup.stderr}`);

    const restoreDir = path.join(tmp, 'restored');
    const restore = await cli(['restore', backupFile, '--data-dir', restoreDir], {});
    if (restore.code !== 0) throw new Error(`restore failed: ${restore.stderr}`);

    await admin.connect();
    adminConnected = true;
    await admin.query(`create database "${dbName}"`);
    const target = new URL(PG_URL);
    target.pathname = `/${dbName}`;
    const exported = await cli(['export', '--to', target.toString()], { SWITCHBOARD_DATA_DIR: dataDir });
    if (exported.code !== 0) throw new Error(`export failed: ${exported.stderr}`);
    const check = new pg.Client({ connectionString: target.toString() });
    await check.connect();
    const counts = (await check.query(`select (select count(*) from switchboard.workflow_runs)::int as runs, (select count(*) from switchboard.contacts)::int as contacts`)).rows[0] as { runs: number; contacts: number };
    await check.end();

    const beforeLat = writes.latencies.slice(0, before);
    const duringLat = writes.latencies.slice(before, during);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    process.stdout.write(
      [
        `bench:move — ${RUNS} runs (+1 step each), ${CONTACTS} contacts; pgdata ${mib(dirBytes(path.join(dataDir, 'pgdata')))}`,
        `  backup while serving   ${s(backup.ms)}   file ${mib(fs.statSync(backupFile).size)}`,
        `    writer (${WRITES_PER_SECOND}/s) before: p50 ${pct(beforeLat, 0.5).toFixed(0)} ms, p99 ${pct(beforeLat, 0.99).toFixed(0)} ms; during: p50 ${pct(duringLat, 0.5).toFixed(0)} ms, p99 ${pct(duringLat, 0.99).toFixed(0)} ms, longest ${Math.max(...duringLat).toFixed(0)} ms; ${writes.acknowledged} acknowledged, ${writes.failed} failed`,
        `  restore                ${s(restore.ms)}   pgdata ${mib(dirBytes(path.join(restoreDir, 'pgdata')))}`,
        `  export to PostgreSQL   ${s(exported.ms)}   runs ${counts.runs}, contacts ${counts.contacts} on PostgreSQL`,
        '',
      ].join('\n'),
    );
  } finally {
    killAllServes();
    // A query on a client that never connected would wait for ever (and the process end silently).
    if (adminConnected) {
      await admin.query(`drop database if exists "${dbName}" with (force)`).catch(() => {});
      await admin.end().catch(() => {});
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  killAllServes();
  log(`bench:move failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exitCode = 1;
});
