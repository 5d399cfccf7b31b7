// `npm run bench:pages`: page creation for one account while another sends crafted pages.
// Starts the real server (`switchboard serve`, as `npm start` does, on PGlite in a temporary
// data directory) on 127.0.0.1, seeds two accounts, then:
//   1. idle: account B creates ordinary pages one after another;
//   2. busy: account A sends 8 crafted pages at a time, continuously ("*a" × 200,000: 400 KB of
//      Markdown whose HTML is 1.1 MB, so 413 page_too_large), while B creates ordinary pages again.
// Prints B's p50/p95 in both phases (target: busy p95 ≤ 250 ms) and what A was answered (every
// crafted page must be 413, none 422). Bounded: a fixed number of B's pages per phase, each phase
// at most PHASE_MS, all traffic to loopback; the server is stopped by its pid at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { configWith } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/open.js';
import { seedFixture } from '../src/fixtures/load.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const B_PAGES = Number(process.env.BENCH_PAGES_B ?? 60);
const A_CONCURRENCY = 8;
const PHASE_MS = 60_000;
const TARGET_P95_MS = 250;
const CRAFTED = JSON.stringify({ title: 'Crafted', markdown: '*a'.repeat(200_000) });

const log = (m: string) => process.stderr.write(`${m}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface Account {
  key: string;
  project: string;
}

async function seed(dataDir: string): Promise<{ a: Account; b: Account }> {
  const db = await openDb(configWith({ dataDir, databaseUrl: null }));
  try {
    await migrate(db);
    const account = (ref: string) => ({
      ref,
      name: `Pages bench ${ref}`,
      tier: 'enterprise' as const,
      limits: { requests_per_minute: 1_000_000 },
      users: [{ ref: 'o', email: `o@${ref}.example`, role: 'owner' as const }],
      projects: [{ ref: 'site', name: 'Site' }],
      keys: [{ ref: 'k', name: 'bench', scopes: ['content:read' as const, 'content:write' as const] }],
    });
    const res = await seedFixture(db, { accounts: [account('a'), account('b')] }, { erasureSecret: randomBytes(16) });
    const of = (ref: string) => ({ key: res.accounts[ref].keys.k, project: res.accounts[ref].projects.site });
    return { a: of('a'), b: of('b') };
  } finally {
    await db.close();
  }
}

async function startServe(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/entry.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SWITCHBOARD_DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`switchboard serve exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
    if (up) return child;
    await sleep(250);
  }
  child.kill('SIGTERM');
  throw new Error('switchboard serve did not answer /healthz within 120 s');
}

function post(port: number, acc: Account, body: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return fetch(`http://127.0.0.1:${port}/v1/projects/${acc.project}/items`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acc.key}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(30_000),
  }).then(
    async (r) => {
      await r.arrayBuffer();
      return { status: r.status, ms: performance.now() - t0 };
    },
    () => ({ status: 0, ms: performance.now() - t0 }),
  );
}

/** B creates ordinary pages one after another: latencies of the 201s. */
async function ordinaryPages(port: number, b: Account, label: string): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  const until = Date.now() + PHASE_MS;
  for (let i = 0; i < B_PAGES && Date.now() < until; i++) {
    const body = JSON.stringify({ title: `${label} ${i}`, markdown: `# Release notes ${i}\n\nSome **bold** text, a [link](https://example.com/${i}) and a list:\n\n- one\n- two\n` });
    const r = await post(port, b, body);
    if (r.status === 201) ms.push(r.ms);
    else failed++;
    await sleep(50);
  }
  return { ms, failed };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(0)} ms, p95 ${pct(xs, 95).toFixed(0)} ms (${xs.length} pages)`;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-pages-'));
  let server: ChildProcess | null = null;
  try {
    const accounts = await seed(dataDir);
    const port = await freePort();
    log(`starting switchboard serve on 127.0.0.1:${port} (PGlite in ${dataDir})`);
    server = await startServe(dataDir, port);
    // Warm-up: the conversion workers start on first use.
    for (let i = 0; i < 5; i++) await post(port, accounts.b, JSON.stringify({ title: 'warm', markdown: 'warm *up*' }));

    log(`idle: B creates ${B_PAGES} pages`);
    const idle = await ordinaryPages(port, accounts.b, 'Idle');

    log(`busy: A sends ${A_CONCURRENCY} crafted pages at a time while B creates ${B_PAGES} pages`);
    const answers = new Map<number, number>();
    const aMs: number[] = [];
    let stop = false;
    const attackers = Array.from({ length: A_CONCURRENCY }, async () => {
      while (!stop) {
        const r = await post(port, accounts.a, CRAFTED);
        answers.set(r.status, (answers.get(r.status) ?? 0) + 1);
        if (r.status === 413) aMs.push(r.ms);
        // A hostile client ignores Retry-After; a short pause keeps a 429 loop from spinning.
        if (r.status !== 413) await sleep(20);
      }
    });
    await sleep(1_000); // A's conversions are under way
    const busy = await ordinaryPages(port, accounts.b, 'Busy');
    stop = true;
    await Promise.all(attackers);

    const ok = pct(busy.ms, 95) <= TARGET_P95_MS && !answers.has(422);
    console.log(`\nPage creation for account B while account A sends ${A_CONCURRENCY} crafted pages at a time ("*a" x 200,000), switchboard serve on PGlite, ${os.availableParallelism()} cores:`);
    console.log(`  B idle: ${fmt(idle.ms)}${idle.failed ? `, ${idle.failed} not created` : ''}`);
    console.log(`  B busy: ${fmt(busy.ms)}${busy.failed ? `, ${busy.failed} not created` : ''}`);
    console.log(`  A's answers: ${[...answers].sort().map(([s, n]) => `${n} x ${s}`).join(', ')}; 413 in ${fmt(aMs).replace(' pages', ' answers')}`);
    console.log(`  target: B busy p95 <= ${TARGET_P95_MS} ms and no 422 for the crafted page: ${ok ? 'met' : 'NOT met'}`);
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error('bench:pages failed:', err);
  process.exit(1);
});
