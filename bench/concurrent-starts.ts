// `npm run bench:starts`: many concurrent run starts while workers charge the same account, on
// PostgreSQL: two `switchboard serve --role api` processes take the starts, two `switchboard
// worker` processes run them (an agent block on the local model: every run is charged). Counts
// the answers by status (a 500 is a failure: issue 23 found deadlocks between a start's lock of
// the account and a charge) and the transaction retries the processes' logs show. Bounded in
// time; loopback only. BENCH_STARTS (default 400), BENCH_ROUNDS (default 2): all rounds fall in
// one minute of the bench key's 1,000 requests a minute (enterprise), so no start meets the limit.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresDb } from '../src/db/postgres.js';
import { seedFixture } from '../src/fixtures/load.js';
import { withPostgresDatabase } from './stores.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = Number(process.env.BENCH_STARTS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const KEY_PER_MINUTE = 1_000;
const READY_MS = 120_000;
const SETTLE_MS = 300_000;
/** What a replayed transaction logs (src/db/tx-retry.ts). */
const RETRY_LINE = /concurrency conflict on the store/;

const say = (m: string) => process.stderr.write(`${m}\n`);

interface Proc {
  child: ChildProcess;
  output: () => string;
  baseUrl: string | null;
}

function spawnCli(args: string[], env: Record<string, string>, ready: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/entry.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within ${READY_MS} ms:\n${out}`)), READY_MS);
    const onData = (d: Buffer) => {
      out += String(d);
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, output: () => out, baseUrl: m[1] ?? null });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
}

async function stop(p: Proc): Promise<void> {
  if (p.child.exitCode !== null) return;
  const done = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 15_000))]);
  if (p.child.exitCode === null) p.child.kill('SIGKILL');
}

async function seed(db: PostgresDb): Promise<{ accountId: string; key: string; workflowId: string }> {
  const res = await seedFixture(
    db,
    {
      accounts: [
        {
          ref: 'bench',
          name: 'Starts bench',
          tier: 'enterprise',
          credit_micros: 1_000_000_000_000,
          users: [{ ref: 'o', email: 'owner@starts.example', role: 'owner' }],
          keys: [{ ref: 'k', name: 'bench', scopes: ['workflows:read', 'workflows:run'] }],
          workflows: [
            {
              ref: 'wf',
              name: 'Charged',
              status: 'active',
              blocks: [{ id: 'ai', kind: 'agent', config: { prompt: 'Say hello to the bench.', max_tokens: 20 } }],
              edges: [],
            },
          ],
        },
      ],
    },
    { erasureSecret: randomBytes(16) },
  );
  const a = res.accounts.bench;
  return { accountId: a.id, key: a.keys.k, workflowId: a.workflows.wf };
}

async function round(db: PostgresDb, apis: Proc[], s: { accountId: string; key: string; workflowId: string }, n: number) {
  const statuses = new Map<number, number>();
  const t0 = Date.now();
  const tag = randomBytes(4).toString('hex');
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const base = apis[i % apis.length].baseUrl!;
      let status: number;
      try {
        const res = await fetch(`${base}/v1/workflows/${s.workflowId}/runs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.key}`, 'idempotency-key': `starts-${tag}-${i}` },
          signal: AbortSignal.timeout(120_000),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = 0; // no answer at all
      }
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }),
  );
  const answeredMs = Date.now() - t0;
  for (;;) {
    const [r] = await db.query<{ n: number }>(
      `select count(*)::int as n from workflow_runs where account_id = $1 and status in ('queued', 'running')`,
      [s.accountId],
    );
    if (r.n === 0) break;
    if (Date.now() - t0 > SETTLE_MS) throw new Error(`${r.n} runs still open after ${SETTLE_MS} ms`);
    await new Promise((res) => setTimeout(res, 200));
  }
  return { statuses, answeredMs, settledMs: Date.now() - t0 };
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    say('bench:starts: watchdog fired (15 min)');
    process.exit(2);
  }, 15 * 60_000);
  watchdog.unref();
  if (STARTS * ROUNDS > KEY_PER_MINUTE) throw new Error(`BENCH_STARTS × BENCH_ROUNDS must stay within the key's ${KEY_PER_MINUTE} requests a minute`);
  let fiveHundreds = 0;
  await withPostgresDatabase('starts', async (db, url) => {
    const procs: Proc[] = [];
    try {
      const s = await seed(db);
      const env = { DATABASE_URL: url, SWITCHBOARD_AUTO_MIGRATE: 'false', SWITCHBOARD_LLM_PROVIDER: 'local' };
      const listening = /listening on (https?:\/\/[^\s;"]+)/;
      const [a1, a2, w1, w2] = await Promise.all([
        spawnCli(['serve', '--role', 'api'], { ...env, HOST: '127.0.0.1', PORT: '0' }, listening),
        spawnCli(['serve', '--role', 'api'], { ...env, HOST: '127.0.0.1', PORT: '0' }, listening),
        spawnCli(['worker'], env, /worker running|engine started/),
        spawnCli(['worker'], env, /worker running|engine started/),
      ]);
      procs.push(a1, a2, w1, w2);
      const rows: string[] = [];
      for (let r = 1; r <= ROUNDS; r++) {
        const res = await round(db, [a1, a2], s, STARTS);
        fiveHundreds += res.statuses.get(500) ?? 0;
        const by = [...res.statuses].sort((x, y) => x[0] - y[0]).map(([k, v]) => `${k}: ${v}`).join(', ');
        rows.push(`| ${r} | ${STARTS} | ${by} | ${res.answeredMs} | ${res.settledMs} |`);
        say(`round ${r}: ${by}`);
      }
      const [c] = await db.query<{ runs: number; charged: number; failed: number }>(
        `select count(*)::int as runs, count(*) filter (where billed_micros > 0)::int as charged,
                count(*) filter (where status <> 'succeeded')::int as failed
           from workflow_runs where account_id = $1`,
        [s.accountId],
      );
      await Promise.all(procs.map(stop));
      const count = (re: RegExp) => procs.map((p) => p.output().split('\n').filter((l) => re.test(l)).length).join(', ');
      console.log('## Concurrent starts beside charging workers (PostgreSQL, 2 API + 2 worker processes)\n');
      console.log('| round | starts | answers by status | all answered (ms) | all runs final (ms) |');
      console.log('| --- | --- | --- | --- | --- |');
      for (const row of rows) console.log(row);
      console.log(`\nruns: ${c.runs}, charged: ${c.charged}, not succeeded: ${c.failed}`);
      console.log(`transaction retries logged (api1, api2, worker1, worker2): ${count(RETRY_LINE)}`);
      console.log(`"deadlock detected" in the logs (api1, api2, worker1, worker2): ${count(/deadlock detected/)}`);
      console.log(`answers 500: ${fiveHundreds}`);
    } finally {
      await Promise.all(procs.map(stop));
    }
  });
  process.exit(fiveHundreds > 0 ? 1 : 0);
}

main().catch((err) => {
  say(String(err?.stack ?? err));
  process.exit(2);
});
