// `npm run bench:runs`: the engine's throughput (trivial runs completed per second) and its
// queued→running latency (p50/p99), on PGlite (the engine in this process) and on PostgreSQL
// with 1 and with 2 `switchboard worker` processes. Bounded in time; loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { enqueueWorkflowRun } from '../src/queue/enqueue.js';
import { configWith } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openPglite } from '../src/db/pglite.js';
import { PostgresDb } from '../src/db/postgres.js';
import { createEngine } from '../src/engine/engine.js';
import { seedFixture } from '../src/fixtures/load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const THROUGHPUT_RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const LATENCY_RATE = 40; // runs queued per second while latency is measured, below capacity
const LATENCY_SECONDS = 8;
const CONCURRENCY = 16;

const log = (m: string) => process.stderr.write(`${m}\n`);

interface Result {
  store: string;
  workers: number;
  runsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  failed: number;
}

async function seed(db: Db): Promise<{ accountId: string; workflowId: string }> {
  const res = await seedFixture(
    db,
    {
      accounts: [
        {
          ref: 'bench',
          name: 'Runs bench',
          tier: 'enterprise',
          credit_micros: 1_000_000_000,
          workflows: [
            {
              ref: 'trivial',
              name: 'Trivial',
              status: 'active',
              blocks: [
                { id: 'src', kind: 'source.text', config: { text: 'hello' } },
                { id: 'tpl', kind: 'transform.template', config: { template: '{{src}} world' } },
              ],
              edges: [{ from: 'src', to: 'tpl' }],
            },
          ],
        },
      ],
    },
    { erasureSecret: randomBytes(16) },
  );
  return { accountId: res.accounts.bench.id, workflowId: res.accounts.bench.workflows.trivial };
}

async function waitAllFinal(db: Db, accountId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [r] = await db.query<{ n: number }>(
      `select count(*)::int as n from workflow_runs where account_id = $1 and status in ('queued', 'running')`,
      [accountId],
    );
    if (r.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${r.n} runs still open after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

function pct(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
}

/** Queues `n` runs in one statement and measures from that commit to the last finish. */
async function throughput(db: Db, s: { accountId: string; workflowId: string }, n: number): Promise<{ perSec: number; failed: number }> {
  await db.query('delete from workflow_run_steps where account_id = $1', [s.accountId]);
  await db.query('delete from workflow_runs where account_id = $1', [s.accountId]);
  const t0 = Date.now();
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into workflow_runs (account_id, id, workflow_id, status, trigger, summary)
       select $1, gen_random_uuid(), $2, 'queued', 'manual', 'Queued' from generate_series(1, $3)`,
      [s.accountId, s.workflowId, n],
    );
    await tx.query(`select pg_notify('switchboard_runs', '')`);
  });
  await waitAllFinal(db, s.accountId, 180_000);
  const [r] = await db.query<{ last: Date; failed: number }>(
    `select max(finished_at) as last, count(*) filter (where status <> 'succeeded')::int as failed
       from workflow_runs where account_id = $1`,
    [s.accountId],
  );
  return { perSec: n / Math.max(0.001, (r.last.getTime() - t0) / 1000), failed: r.failed };
}

/** Queues runs one by one at a steady rate below capacity; latency = started_at − created_at. */
async function latency(db: Db, s: { accountId: string; workflowId: string }): Promise<{ p50: number; p99: number }> {
  await db.query('delete from workflow_run_steps where account_id = $1', [s.accountId]);
  await db.query('delete from workflow_runs where account_id = $1', [s.accountId]);
  const total = LATENCY_RATE * LATENCY_SECONDS;
  const start = Date.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / LATENCY_RATE;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await db.transaction((tx) => enqueueWorkflowRun(tx, { accountId: s.accountId, workflowId: s.workflowId, trigger: 'manual', keyId: null, startDelayMs: 0 }));
  }
  await waitAllFinal(db, s.accountId, 60_000);
  const rows = await db.query<{ created_at: Date; started_at: Date }>(
    'select created_at, started_at from workflow_runs where account_id = $1',
    [s.accountId],
  );
  const lat = rows.map((r) => r.started_at.getTime() - r.created_at.getTime()).sort((a, b) => a - b);
  return { p50: pct(lat, 50), p99: pct(lat, 99) };
}

/**
 * BENCH_WORKER_METRICS_PORT=P: worker i serves /metrics on 127.0.0.1:(P+i), to scrape while the
 * bench runs (README, "Metrics").
 */
const METRICS_PORT = process.env.BENCH_WORKER_METRICS_PORT ? Number(process.env.BENCH_WORKER_METRICS_PORT) : null;

function spawnWorker(url: string, index: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/entry.ts'), 'worker'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      SWITCHBOARD_WORKER_CONCURRENCY: String(CONCURRENCY),
      SWITCHBOARD_AUTO_MIGRATE: 'false',
      ...(METRICS_PORT === null ? {} : { SWITCHBOARD_METRICS_ADDR: `127.0.0.1:${METRICS_PORT + index}` }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += String(d);
      if (/worker running|engine started/.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${out}`));
    });
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function measureStore(store: 'pglite' | 'postgres'): Promise<Result[]> {
  const out: Result[] = [];
  if (store === 'pglite') {
    const db = await openPglite({ dataDir: null });
    await migrate(db);
    const s = await seed(db);
    const base = configWith({});
    const engine = createEngine(db, configWith({ engine: { ...base.engine, concurrency: CONCURRENCY } }));
    await engine.start();
    try {
      const t = await throughput(db, s, THROUGHPUT_RUNS);
      const l = await latency(db, s);
      out.push({ store, workers: 1, runsPerSec: t.perSec, latencyP50Ms: l.p50, latencyP99Ms: l.p99, failed: t.failed });
    } finally {
      await engine.stop();
      await db.close();
    }
    return out;
  }
  const name = `sb_bench_runs_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = new PostgresDb(url, 4);
  try {
    await migrate(db);
    const s = await seed(db);
    for (const workers of [1, 2]) {
      const children = await Promise.all(Array.from({ length: workers }, (_, i) => spawnWorker(url, i)));
      try {
        const t = await throughput(db, s, THROUGHPUT_RUNS);
        const l = await latency(db, s);
        out.push({ store, workers, runsPerSec: t.perSec, latencyP50Ms: l.p50, latencyP99Ms: l.p99, failed: t.failed });
      } finally {
        await Promise.all(children.map(stopWorker));
      }
    }
  } finally {
    await db.close();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  return out;
}

export async function benchRuns(stores: ('pglite' | 'postgres')[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const store of stores) {
    log(`bench:runs: ${store}…`);
    results.push(...(await measureStore(store)));
  }
  return results;
}

export function formatRuns(results: Result[]): string {
  const lines = [
    `Engine: ${THROUGHPUT_RUNS} trivial runs (source.text → transform.template) queued at once; latency at ${LATENCY_RATE} runs/s for ${LATENCY_SECONDS} s; concurrency ${CONCURRENCY} per worker`,
    'store     workers  runs/s   queued→running p50  p99     failed',
  ];
  for (const r of results) {
    lines.push(
      `${r.store.padEnd(9)} ${String(r.workers).padEnd(8)} ${r.runsPerSec.toFixed(0).padStart(6)}   ${`${r.latencyP50Ms} ms`.padStart(8)}          ${`${r.latencyP99Ms} ms`.padStart(7)}  ${r.failed}`,
    );
  }
  const pg2 = results.find((r) => r.store === 'postgres' && r.workers === 2);
  if (pg2) lines.push(`${pg2.runsPerSec >= 200 ? 'PASS' : 'FAIL'} postgres, 2 workers: ${pg2.runsPerSec.toFixed(0)} runs/s (target >= 200)`);
  for (const r of results) {
    lines.push(`${r.latencyP99Ms < 1000 ? 'PASS' : 'FAIL'} ${r.store}, ${r.workers} worker(s): queued→running p99 ${r.latencyP99Ms} ms (target < 1000 ms)`);
  }
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = process.argv.slice(2).find((a) => a.startsWith('--store='))?.slice('--store='.length) ?? 'both';
  const stores = arg === 'both' ? (['pglite', 'postgres'] as const) : [arg as 'pglite' | 'postgres'];
  const watchdog = setTimeout(() => {
    log('bench:runs: giving up after 15 minutes');
    process.exit(1);
  }, 15 * 60_000);
  watchdog.unref();
  benchRuns([...stores]).then(
    (r) => {
      console.log(formatRuns(r));
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
