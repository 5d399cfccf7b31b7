// `npm run bench`: Switchboard's workflow reads on the process users run — `switchboard serve` as
// `npm start` starts it (API and engine, default LOG_LEVEL=info, its log in a file) — on PGlite and
// PostgreSQL at 50 connections, against each store's floor (bare Fastify + one query of that
// store, in the same run): the targets are shares of the floor (issue 14). Also measured: bare
// Fastify (start and end: how noisy the machine was), the app alone with its logger off (where
// time goes), the shared rate counters (PostgreSQL, Redis), and the serve process's start time
// and memory. Each server is a child process; the load generator is this one. Prints a table and
// the acceptance checks, and writes bench/results/latest.json. See bench/args.ts for flags.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseArgs, type BenchArgs } from './args.js';
import { killAllChildren, ROOT, startServer } from './child.js';
import { formatCounterFigures, readCounterFigures, type CounterFigures } from './counter-log.js';
import { cpuMeter } from './cpu.js';
import { measure, warmUp, type Measurement } from './load.js';
import { summariseProfiles } from './profile.js';
import { acceptance, formatProcesses, formatTable, type CaseId, type ProcessFigures, type Row, type StoreName } from './report.js';
import { BIN_NODE_FLAGS, killAllServes, SERVE_NODE_FLAGS, startServe, type ServeOptions } from './serve-child.js';
import type { SeedInfo } from './seed.js';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = 'redis://127.0.0.1:6379';
const RESULTS = path.join(ROOT, 'bench', 'results');
// Seeding 101,000 workflows plus migrations; PGlite's cold start alone is a few seconds.
const READY_TIMEOUT_MS = 240_000;

const log = (msg: string) => process.stderr.write(`${msg}\n`);
const n = (x: number) => x.toLocaleString('en-US');

/** The load generator may only ever aim at this machine. */
function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    throw new Error(`BENCH_DATABASE_URL must point at a loopback address (127.0.0.1), not ${host}`);
  }
}

function withDatabase(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The database this run created, so the watchdog can still drop it if the run hangs. */
let pendingDrop: { adminUrl: string; name: string } | null = null;

async function dropPending(): Promise<void> {
  if (!pendingDrop) return;
  const c = new pg.Client({ connectionString: pendingDrop.adminUrl, connectionTimeoutMillis: 5_000, query_timeout: 10_000 });
  try {
    await c.connect();
    await c.query(`drop database if exists "${pendingDrop.name}" with (force)`);
  } catch (err) {
    log(`bench: could not drop ${pendingDrop.name}: ${(err as Error).message}`);
  } finally {
    await c.end().catch(() => {});
  }
}

/** Which code was measured: others edit src/ while benches run, so a result names its tree. */
function sourceVersion(): { commit: string | null; modified: string[] } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: ROOT, timeout: 5_000, encoding: 'utf8' }).trim();
  try {
    const modified = git(['status', '--porcelain', '--', 'src']).split('\n').filter(Boolean).map((l) => l.slice(3));
    return { commit: git(['rev-parse', '--short', 'HEAD']), modified };
  } catch {
    return { commit: null, modified: [] };
  }
}

interface Ctx {
  args: BenchArgs;
  profileDir: string | null;
  rows: Row[];
  /** The database of the PostgreSQL run in progress (the CPU meter counts its backends). */
  pgDatabase: string | null;
  seeding: Record<string, { seedMs: number; readyMs: number }>;
  /** The real process per store: start → /healthz, resident memory idle and after its cases. */
  processes: ProcessFigures[];
  /** Where the serve processes' logs go (as an operator would collect them). */
  logDir: string;
  /** The shared rate counters' answer times and fallbacks, from the serve logs. */
  counters: CounterFigures[];
}

/** Something that answers on a port and whose CPU the meter can count. */
interface Target {
  pid: number;
  port: number;
  command?: (line: string) => Promise<void>;
}

async function runCase(
  ctx: Ctx,
  server: Target,
  store: StoreName,
  caseId: CaseId,
  label: string,
  rateLimit: Row['rateLimit'],
  urlPath: string,
  key: string | null,
  verify: (body: any) => string | null,
): Promise<void> {
  const url = `http://127.0.0.1:${server.port}${urlPath}`;
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  // One request first: a benchmark of a 404 or an empty list would be fast and meaningless.
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const body = await res.json().catch(() => null);
  const wrong = res.status !== 200 ? `status ${res.status}: ${JSON.stringify(body)}` : verify(body);
  if (wrong) throw new Error(`${store} ${label}: sanity request failed: ${wrong}`);

  log(`  ${store} ${label}${rateLimit !== '-' && rateLimit !== 'memory' ? ` [${rateLimit} rate counter]` : ''}: ${ctx.args.warmupS} s warm-up + ${ctx.args.durationS} s`);
  const load = { url, headers, connections: ctx.args.connections, durationS: ctx.args.durationS, warmupS: ctx.args.warmupS };
  await warmUp(load);
  const slug = `${store}-${label}-${rateLimit}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');
  // Children of bench/server.ts profile exactly the window; `switchboard serve` is profiled whole
  // (--cpu-prof, one process per case when --profile is on).
  const profile = ctx.profileDir && server.command ? path.join(ctx.profileDir, `${slug}.cpuprofile`) : null;
  if (profile) await server.command!('profile-start');
  const stopMeter = cpuMeter(server.pid, store === 'postgres' ? ctx.pgDatabase : null);
  const m: Measurement = await measure(load);
  const cpu = stopMeter();
  if (profile) await server.command!(`profile-stop ${profile}`);
  log(`    ${n(m.reqPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, non-2xx ${m.non2xx}`);
  ctx.rows.push({ store, caseId, label, rateLimit, m, cpu, ratio: null, floorRatio: null });
}

const wanted = (ctx: Ctx, id: string) => ctx.args.only.length === 0 || ctx.args.only.includes(id);

async function runBare(ctx: Ctx, label: string): Promise<void> {
  const server = await startServer({ args: ['--bare'], readyTimeoutMs: 30_000, label: `bare-${label}` });
  try {
    await runCase(ctx, server, 'fastify', 'bare', `GET / hello world (${label})`, '-', '/', null, (b) =>
      b?.hello === 'world' ? null : `unexpected body ${JSON.stringify(b)}`,
    );
  } finally {
    await server.stop();
  }
}

async function runFloor(ctx: Ctx, store: 'pglite' | 'postgres', args: string[], env?: Record<string, string>): Promise<void> {
  if (!wanted(ctx, 'floor')) return;
  const floor = await startServer({ args, env, readyTimeoutMs: 60_000, label: `${store}-floor` });
  try {
    await runCase(ctx, floor, store, 'floor', `GET / + 1 ${store === 'pglite' ? 'PGlite' : 'prepared'} query (floor)`, '-', '/', null, (b) =>
      b?.n === 1 ? null : `unexpected body ${JSON.stringify(b)}`,
    );
  } finally {
    await floor.stop();
  }
}

type ServeCase = 'get' | 'list-small' | 'list-large';

/** One workflow read against a running server. */
async function runServeCase(ctx: Ctx, server: Target, store: StoreName, seed: SeedInfo, caseId: ServeCase, rateLimit: Row['rateLimit'], label?: string): Promise<void> {
  if (caseId === 'get') {
    await runCase(ctx, server, store, label ? 'get-app' : 'get', label ?? 'GET /v1/workflows/{id}', rateLimit, `/v1/workflows/${seed.workflowId}`, seed.small.key, (b) =>
      b?.id === seed.workflowId && b?.last_run ? null : `unexpected body ${JSON.stringify(b)}`,
    );
    return;
  }
  const acct = caseId === 'list-small' ? seed.small : seed.large;
  await runCase(ctx, server, store, caseId, `GET /v1/workflows (${n(acct.workflows)})`, rateLimit, '/v1/workflows', acct.key, (b) =>
    Array.isArray(b?.data) && b.data.length === Math.min(25, acct.workflows) && b.data.some((w: any) => w.last_run)
      ? null
      : `expected a page of 25 workflows, some with last_run; got ${JSON.stringify(b).slice(0, 300)}`,
  );
}

/**
 * The cases on the real `switchboard serve`: one process for all of them (its memory after the
 * whole load is a figure too), or one per case when profiling (each profile is then one case).
 */
async function runServeCases(
  ctx: Ctx,
  opts: Omit<ServeOptions, 'logFile' | 'label' | 'cpuProfDir'>,
  seed: SeedInfo,
  cases: ServeCase[],
  figures: boolean,
): Promise<void> {
  const todo = cases.filter((c) => wanted(ctx, opts.rateLimit === 'memory' ? c : `get-${opts.rateLimit === 'postgres' ? 'pgcounter' : 'redis'}`));
  if (!todo.length) return;
  const store = opts.store;
  const logFile = path.join(ctx.logDir, `serve-${store}-${opts.rateLimit}.log`);
  const groups = ctx.profileDir ? todo.map((c) => [c]) : [todo];
  for (const group of groups) {
    const cpuProfDir = ctx.profileDir ? path.join(ctx.profileDir, `${store}-${group[0]}-${opts.rateLimit}`) : null;
    const server = await startServe({
      ...opts,
      logFile,
      cpuProfDir,
      label: `${store}-serve-${opts.rateLimit}`,
      readyTimeoutMs: 120_000,
      rateLimitTimeoutMs: ctx.args.rateLimitTimeoutMs,
    });
    try {
      // A moment at rest first: what an operator sees after start, before any traffic.
      await new Promise((r) => setTimeout(r, 2_000));
      const idle = server.rssMiB();
      log(`  ${store} switchboard serve (rate counter ${opts.rateLimit}): /healthz after ${server.startMs} ms, idle RSS ${idle} MiB`);
      for (const c of group) await runServeCase(ctx, server, store, seed, c, opts.rateLimit);
      if (figures && group === groups[0]) {
        ctx.processes.push({ store, rateLimit: opts.rateLimit, startMs: server.startMs, idleRssMiB: idle, afterRssMiB: server.rssMiB(), cases: group.length });
      }
    } finally {
      const code = await server.stop();
      if (code !== 0) log(`  ${store} switchboard serve exited with ${code}; see ${logFile}`);
    }
    // Written at close: the counter's answer times under this load, and what fell back.
    const figs = opts.rateLimit === 'memory' ? null : readCounterFigures(logFile, store, opts.rateLimit);
    if (figs) {
      ctx.counters.push(figs);
      log(`    ${formatCounterFigures([figs])}`);
    }
  }
}

/** Migrates and seeds a store in a child of its own, so the serve process starts on a ready store. */
async function seedStore(args: string[], env: Record<string, string> | undefined, label: string): Promise<SeedInfo> {
  const child = await startServer({ args: [...args, '--seed-only'], env, readyTimeoutMs: READY_TIMEOUT_MS, label });
  await child.stop();
  return child.seed!;
}

async function runPglite(ctx: Ctx): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-pglite-'));
  try {
    const data = path.join(dir, 'data');
    log(`pglite: seeding ${n(ctx.args.small)} + ${n(ctx.args.large)} workflows in ${data}`);
    const t0 = performance.now();
    const seed = await seedStore(['--store', 'pglite', '--data-dir', data, '--seed', `${ctx.args.small},${ctx.args.large}`], undefined, 'pglite-seed');
    ctx.seeding.pglite = { seedMs: seed.seedMs, readyMs: Math.round(performance.now() - t0) };
    log(`  seeded in ${(seed.seedMs / 1000).toFixed(1)} s`);
    await runFloor(ctx, 'pglite', ['--bare-pglite', '--data-dir', path.join(dir, 'floor')]);
    await runServeCases(ctx, { store: 'pglite', dataDir: data, rateLimit: 'memory' }, seed, ['get', 'list-small', 'list-large'], true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function runPostgres(ctx: Ctx, adminUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  await admin.connect();
  const name = `sb_bench_${randomBytes(6).toString('hex')}`;
  try {
    const [{ server_version: version }] = (await admin.query('show server_version')).rows;
    await admin.query(`create database "${name}"`);
    pendingDrop = { adminUrl, name };
    ctx.pgDatabase = name;
    try {
      const databaseUrl = withDatabase(adminUrl, name);
      const env = { BENCH_CHILD_DATABASE_URL: databaseUrl };
      log(`postgres ${version}: seeding ${n(ctx.args.small)} + ${n(ctx.args.large)} workflows in database ${name}`);
      const t0 = performance.now();
      const seed = await seedStore(['--store', 'postgres', '--seed', `${ctx.args.small},${ctx.args.large}`], env, 'postgres-seed');
      ctx.seeding.postgres = { seedMs: seed.seedMs, readyMs: Math.round(performance.now() - t0) };
      log(`  seeded in ${(seed.seedMs / 1000).toFixed(1)} s`);
      await runFloor(ctx, 'postgres', ['--bare-pg'], env);
      await runServeCases(ctx, { store: 'postgres', databaseUrl, rateLimit: 'memory' }, seed, ['get', 'list-small', 'list-large'], true);
      // The shared counters' cost shows on the cheapest route.
      await runServeCases(ctx, { store: 'postgres', databaseUrl, rateLimit: 'postgres' }, seed, ['get'], false);
      await runServeCases(ctx, { store: 'postgres', databaseUrl, rateLimit: 'redis', redisUrl: REDIS_URL }, seed, ['get'], false);
      if (wanted(ctx, 'get-app')) {
        // Not a target: the app alone (logger off, no engine, no process set-up), to see where time goes.
        const app = await startServer({ args: ['--store', 'postgres', '--rate-limit', 'memory'], env, readyTimeoutMs: 60_000, label: 'postgres-app' });
        try {
          await runServeCase(ctx, app, 'postgres', seed, 'get', 'memory', 'GET /v1/workflows/{id} (app only, logger off)');
        } finally {
          await app.stop();
        }
      }
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      pendingDrop = null;
    }
    return String(version);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || DEFAULT_ADMIN_URL;
  assertLoopback(adminUrl);
  const stores: Array<'pglite' | 'postgres'> = args.store === 'both' ? ['pglite', 'postgres'] : [args.store];
  const started = new Date();
  const source = sourceVersion();
  const profileDir = args.profile ? path.join(RESULTS, 'profiles', started.toISOString().replace(/[:.]/g, '-')) : null;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-logs-'));
  const ctx: Ctx = { args, profileDir, rows: [], pgDatabase: null, seeding: {}, processes: [], logDir, counters: [] };

  // Every case is bounded by autocannon's duration; this is the backstop for anything else
  // (a child that never answers, a database that hangs) so the run always ends.
  const perCase = args.warmupS + args.durationS + 15;
  const budgetS = 2 * perCase + stores.length * (6 * perCase + READY_TIMEOUT_MS / 1000 + 240);
  const watchdog = setTimeout(() => {
    log(`bench: over its ${budgetS} s budget; killing the servers`);
    killAllChildren();
    killAllServes();
    void dropPending().finally(() => process.exit(2));
  }, budgetS * 1000);
  watchdog.unref();

  log(`bench: ${args.connections} connections, ${args.warmupS} s warm-up + ${args.durationS} s per case, stores: ${stores.join(', ')}`);
  log(`bench: switchboard serve runs as npm start runs it: node ${BIN_NODE_FLAGS.join(' ')} bin/switchboard.js serve`);
  // A second of the machine at rest: on a shared 2-core box, someone's test run halves our figures.
  const stopIdleMeter = cpuMeter(0);
  await new Promise((r) => setTimeout(r, 1_000));
  const atRest = stopIdleMeter();
  if (atRest && atRest.otherPct > 15) {
    log(`bench: WARNING other processes are using ${atRest.otherPct}% of a core before we start; the figures will be low and noisy`);
  }
  await runBare(ctx, 'start');
  let pgVersion: string | null = null;
  for (const store of stores) {
    if (store === 'pglite') await runPglite(ctx);
    else pgVersion = await runPostgres(ctx, adminUrl);
  }
  // Measured again at the end: the two bracket the run, and their spread shows how noisy the
  // machine was. The ratio uses their mean.
  await runBare(ctx, 'end');

  const bare = ctx.rows.filter((r) => r.caseId === 'bare');
  const baseline = bare.reduce((s, r) => s + r.m.reqPerSec, 0) / bare.length;
  for (const r of ctx.rows) {
    r.ratio = r.m.reqPerSec / baseline;
    const floor = ctx.rows.find((f) => f.caseId === 'floor' && f.store === r.store);
    r.floorRatio = floor && r.store !== 'fastify' ? r.m.reqPerSec / floor.m.reqPerSec : null;
  }
  const logBytes = logFigures(ctx);
  const checks = acceptance(ctx.rows, stores, ctx.processes);

  console.log('');
  console.log(formatTable(ctx.rows));
  console.log('');
  console.log(formatProcesses(ctx.processes));
  if (logBytes) console.log(`\nrequest logs of switchboard serve: ${logBytes}`);
  if (ctx.counters.length) console.log(`\n${formatCounterFigures(ctx.counters)}`);
  console.log(`\nbaseline (bare Fastify, mean of start and end): ${n(Math.round(baseline))} req/s`);
  console.log(`source: ${source.commit ?? 'unknown commit'}${source.modified.length ? ` + uncommitted changes in ${source.modified.join(', ')}` : ''}`);
  if (SERVE_NODE_FLAGS.length) console.log(`NOTE  switchboard serve ran with extra node flags (BENCH_NODE_FLAGS): ${SERVE_NODE_FLAGS.join(' ')}`);
  for (const [store, s] of Object.entries(ctx.seeding)) {
    console.log(`seeding ${store}: ${(s.seedMs / 1000).toFixed(1)} s (child ready after ${(s.readyMs / 1000).toFixed(1)} s)`);
  }
  console.log('');
  for (const c of checks) console.log(`${c.status.padEnd(4)}  ${c.text}`);

  // A profiled run's figures are skewed by the sampler, so they go beside their profiles and
  // leave latest.json to the last plain run.
  const resultsDir = profileDir ?? RESULTS;
  fs.mkdirSync(resultsDir, { recursive: true });
  const out = {
    generated_at: started.toISOString(),
    machine: { node: process.version, cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model ?? null, platform: `${os.platform()} ${os.release()}`, postgres: pgVersion },
    options: { ...args, stores },
    machine_busy_before_start: atRest,
    source,
    baseline_req_per_sec: Math.round(baseline),
    seeding: ctx.seeding,
    processes: ctx.processes,
    rate_counters: ctx.counters,
    rows: ctx.rows,
    checks,
  };
  const file = path.join(resultsDir, profileDir ? 'results.json' : 'latest.json');
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
  if (profileDir) console.log(`\n${summariseProfiles(profileDir)}`);
  fs.rmSync(logDir, { recursive: true, force: true });
  clearTimeout(watchdog);
}

/** What the serve processes wrote per request served: the operator's log volume. */
function logFigures(ctx: Ctx): string | null {
  const served = ctx.rows.filter((r) => r.caseId !== 'bare' && r.caseId !== 'floor' && r.caseId !== 'get-app');
  const requests = served.reduce((s, r) => s + r.m.requests, 0);
  let bytes = 0;
  let lines = 0;
  for (const f of fs.readdirSync(ctx.logDir)) {
    const text = fs.readFileSync(path.join(ctx.logDir, f), 'utf8');
    bytes += Buffer.byteLength(text);
    lines += text.split('\n').length - 1;
  }
  // Warm-ups and sanity requests are logged too; the ratio is over the measured windows only.
  return requests ? `${n(lines)} lines, ${n(bytes)} bytes for ${n(requests)} measured requests (plus warm-ups)` : null;
}

main().catch(async (err) => {
  killAllChildren();
  killAllServes();
  console.error(err instanceof Error ? err.message : err);
  await dropPending();
  process.exit(1);
});
