// `npm run bench`: bare Fastify vs Switchboard's workflow reads, on PGlite and PostgreSQL, at 50
// connections, each server in its own child process and the load generator here. Prints a table
// and the acceptance checks, and writes bench/results/latest.json. See bench/args.ts for flags.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parseArgs, type BenchArgs } from './args.js';
import { killAllChildren, ROOT, startServer, type ServerChild } from './child.js';
import { cpuMeter } from './cpu.js';
import { measure, warmUp, type Measurement } from './load.js';
import { summariseProfiles } from './profile.js';
import { acceptance, formatTable, type CaseId, type Row, type StoreName } from './report.js';
import type { SeedInfo } from './seed.js';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
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
}

async function runCase(
  ctx: Ctx,
  server: ServerChild,
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

  log(`  ${store} ${label}${rateLimit === 'postgres' ? ' [postgres rate counter]' : ''}: ${ctx.args.warmupS} s warm-up + ${ctx.args.durationS} s`);
  const load = { url, headers, connections: ctx.args.connections, durationS: ctx.args.durationS, warmupS: ctx.args.warmupS };
  await warmUp(load);
  const slug = `${store}-${label}-${rateLimit}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');
  const profile = ctx.profileDir ? path.join(ctx.profileDir, `${slug}.cpuprofile`) : null;
  if (profile) await server.command('profile-start');
  const stopMeter = cpuMeter(server.pid, store === 'postgres' ? ctx.pgDatabase : null);
  const m: Measurement = await measure(load);
  const cpu = stopMeter();
  if (profile) await server.command(`profile-stop ${profile}`);
  log(`    ${n(m.reqPerSec)} req/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, non-2xx ${m.non2xx}`);
  ctx.rows.push({ store, caseId, label, rateLimit, m, cpu, ratio: null });
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

/** Cases b, c, d against one running Switchboard child. */
async function runWorkflowCases(ctx: Ctx, server: ServerChild, store: StoreName, seed: SeedInfo, rateLimit: 'memory' | 'postgres'): Promise<void> {
  const getWanted = rateLimit === 'memory' ? wanted(ctx, 'get') : wanted(ctx, 'get-pgcounter');
  if (getWanted) {
    await runCase(ctx, server, store, 'get', 'GET /v1/workflows/{id}', rateLimit, `/v1/workflows/${seed.workflowId}`, seed.small.key, (b) =>
      b?.id === seed.workflowId && b?.last_run ? null : `unexpected body ${JSON.stringify(b)}`,
    );
  }
  if (rateLimit === 'postgres') return; // the shared counter's cost shows on the cheapest route
  const lists: Array<[CaseId, SeedInfo['small']]> = [
    ['list-small', seed.small],
    ['list-large', seed.large],
  ];
  for (const [caseId, acct] of lists) {
    if (!wanted(ctx, caseId)) continue;
    await runCase(ctx, server, store, caseId, `GET /v1/workflows (${n(acct.workflows)})`, rateLimit, '/v1/workflows', acct.key, (b) =>
      Array.isArray(b?.data) && b.data.length === Math.min(25, acct.workflows) && b.data.some((w: any) => w.last_run)
        ? null
        : `expected a page of 25 workflows, some with last_run; got ${JSON.stringify(b).slice(0, 300)}`,
    );
  }
}

async function runPglite(ctx: Ctx): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-pglite-'));
  try {
    log(`pglite: seeding ${n(ctx.args.small)} + ${n(ctx.args.large)} workflows in ${dir}`);
    const server = await startServer({
      args: ['--store', 'pglite', '--data-dir', dir, '--seed', `${ctx.args.small},${ctx.args.large}`],
      readyTimeoutMs: READY_TIMEOUT_MS,
      label: 'pglite',
    });
    try {
      ctx.seeding.pglite = { seedMs: server.seed!.seedMs, readyMs: server.startMs };
      log(`  seeded in ${(server.seed!.seedMs / 1000).toFixed(1)} s (ready after ${(server.startMs / 1000).toFixed(1)} s)`);
      await runWorkflowCases(ctx, server, 'pglite', server.seed!, 'memory');
    } finally {
      await server.stop();
    }
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
      const env = { BENCH_CHILD_DATABASE_URL: withDatabase(adminUrl, name) };
      log(`postgres ${version}: seeding ${n(ctx.args.small)} + ${n(ctx.args.large)} workflows in database ${name}`);
      const server = await startServer({
        args: ['--store', 'postgres', '--rate-limit', 'memory', '--seed', `${ctx.args.small},${ctx.args.large}`],
        env,
        readyTimeoutMs: READY_TIMEOUT_MS,
          label: 'postgres',
      });
      const seed = server.seed!;
      try {
        ctx.seeding.postgres = { seedMs: seed.seedMs, readyMs: server.startMs };
        log(`  seeded in ${(seed.seedMs / 1000).toFixed(1)} s (ready after ${(server.startMs / 1000).toFixed(1)} s)`);
        await runWorkflowCases(ctx, server, 'postgres', seed, 'memory');
      } finally {
        await server.stop();
      }
      if (wanted(ctx, 'floor')) {
        const floor = await startServer({ args: ['--bare-pg'], env, readyTimeoutMs: 30_000, label: 'postgres-floor' });
        try {
          await runCase(ctx, floor, 'postgres', 'floor', 'GET / + 1 query (floor)', '-', '/', null, (b) =>
            b?.n === 1 ? null : `unexpected body ${JSON.stringify(b)}`,
          );
        } finally {
          await floor.stop();
        }
      }
      if (wanted(ctx, 'get-pgcounter')) {
        // Same database and keys, a fresh process counting requests in the rate_counters table.
        const shared = await startServer({
          args: ['--store', 'postgres', '--rate-limit', 'postgres'],
          env,
          readyTimeoutMs: 60_000,
              label: 'postgres-pgcounter',
        });
        try {
          await runWorkflowCases(ctx, shared, 'postgres', seed, 'postgres');
        } finally {
          await shared.stop();
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
  const ctx: Ctx = { args, profileDir, rows: [], pgDatabase: null, seeding: {} };

  // Every case is bounded by autocannon's duration; this is the backstop for anything else
  // (a child that never answers, a database that hangs) so the run always ends.
  const perCase = args.warmupS + args.durationS + 15;
  const budgetS = 2 * perCase + stores.length * (4 * perCase + READY_TIMEOUT_MS / 1000 + 120);
  const watchdog = setTimeout(() => {
    log(`bench: over its ${budgetS} s budget; killing the servers`);
    killAllChildren();
    void dropPending().finally(() => process.exit(2));
  }, budgetS * 1000);
  watchdog.unref();

  log(`bench: ${args.connections} connections, ${args.warmupS} s warm-up + ${args.durationS} s per case, stores: ${stores.join(', ')}`);
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
  for (const r of ctx.rows) r.ratio = r.m.reqPerSec / baseline;
  const checks = acceptance(ctx.rows, stores);

  console.log('');
  console.log(formatTable(ctx.rows));
  console.log(`\nbaseline (bare Fastify, mean of start and end): ${n(Math.round(baseline))} req/s`);
  console.log(`source: ${source.commit ?? 'unknown commit'}${source.modified.length ? ` + uncommitted changes in ${source.modified.join(', ')}` : ''}`);
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
    rows: ctx.rows,
    checks,
  };
  const file = path.join(resultsDir, profileDir ? 'results.json' : 'latest.json');
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
  if (profileDir) console.log(`\n${summariseProfiles(profileDir)}`);
  clearTimeout(watchdog);
}

main().catch(async (err) => {
  killAllChildren();
  console.error(err instanceof Error ? err.message : err);
  await dropPending();
  process.exit(1);
});
