// Shared set-up for the engine tests: a real database (fresh per file), accounts from a fixture,
// workflows of test-only blocks written with plain SQL (the fixture validator knows only the real
// block kinds), and small blocks whose executions and side effects are recorded in test tables.
import { inlinePageRenderer } from '../../src/lib/page-renderer.js';
import { configWith, loadConfig, type Config, type EngineConfig } from '../../src/config.js';
import type { Db } from '../../src/db/db.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { enqueueWorkflowRun as insertRun } from '../../src/queue/enqueue.js';
import { Engine, type EngineOptions } from '../../src/engine/engine.js';
import type { Billing, Block, BlockContext, BlockResult, Providers } from '../../src/engine/types.js';
import type { RunStatus } from '../../src/domain/workflow.js';

export async function seedAccounts(db: Db, refs: string[] = ['acme', 'globex']): Promise<Record<string, string>> {
  const seeded = await seedFixture(db, { accounts: refs.map((ref) => ({ ref, name: `Account ${ref}` })) }, { erasureSecret: Buffer.from('t') });
  // Test-only tables: block executions (who ran what, under which attempt) and keyed side effects.
  await db.exec(`
    create table if not exists test_executions (n serial primary key, run_id uuid not null, block_id text not null, attempt int not null);
    create table if not exists test_effects (effect_key text primary key, done_at timestamptz not null default now());
  `);
  return Object.fromEntries(refs.map((r) => [r, seeded.accounts[r].id]));
}

export interface TestBlock {
  id: string;
  kind: string;
  config?: Record<string, unknown>;
}

export async function insertWorkflow(db: Db, accountId: string, blocks: TestBlock[], edges: { from: string; to: string }[] = []): Promise<string> {
  const id = uuidv7();
  await db.query(
    `insert into workflows (account_id, id, name, status, blocks, edges) values ($1, $2, 'Test workflow', 'active', $3::jsonb, $4::jsonb)`,
    [accountId, id, JSON.stringify(blocks.map((b) => ({ config: {}, ...b }))), JSON.stringify(edges)],
  );
  return id;
}

/** A chain a → b → c … of the given blocks. */
export function chain(blocks: TestBlock[]): { blocks: TestBlock[]; edges: { from: string; to: string }[] } {
  return { blocks, edges: blocks.slice(1).map((b, i) => ({ from: blocks[i].id, to: b.id })) };
}

export async function queueRun(db: Db, accountId: string, workflowId: string, trigger: 'api' | 'manual' = 'manual'): Promise<string> {
  const r = await db.transaction((tx) => insertRun(tx, { accountId, workflowId, trigger, keyId: null, startDelayMs: 0 }));
  return r.id;
}

export interface RunRow {
  status: RunStatus;
  summary: string;
  started_at: Date | null;
  finished_at: Date | null;
  attempt: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
}

export async function runRow(db: Db, runId: string): Promise<RunRow> {
  const rows = await db.query<RunRow>(
    `select status, summary, started_at, finished_at, attempt, lease_owner, lease_expires_at from workflow_runs where id = $1`,
    [runId],
  );
  return rows[0];
}

export interface StepRow {
  seq: number;
  node_id: string;
  node_kind: string;
  status: string;
  ms: number;
  error: string | null;
  output: { text: string; [k: string]: unknown } | null;
  effect_key: string | null;
  started_at: Date | null;
  finished_at: Date | null;
}

export async function steps(db: Db, runId: string): Promise<StepRow[]> {
  return db.query<StepRow>(
    `select seq, node_id, node_kind, status, ms, error, output, effect_key, started_at, finished_at
       from workflow_run_steps where run_id = $1 order by seq`,
    [runId],
  );
}

export async function executions(db: Db, runId?: string): Promise<{ run_id: string; block_id: string; attempt: number }[]> {
  return db.query(`select run_id, block_id, attempt from test_executions where $1::uuid is null or run_id = $1::uuid order by n`, [runId ?? null]);
}

/** Polls until the run's status satisfies `want` (a status or a predicate); fails after timeoutMs. */
export async function waitForRun(db: Db, runId: string, want: RunStatus | ((s: RunStatus) => boolean), timeoutMs = 60_000): Promise<RunRow> {
  const ok = typeof want === 'function' ? want : (s: RunStatus) => s === want;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await runRow(db, runId);
    if (row && ok(row.status)) return row;
    if (Date.now() > deadline) throw new Error(`run ${runId} is ${row?.status} (${row?.summary}) after ${timeoutMs} ms`);
    await sleep(15);
  }
}

export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(15);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const record = (ctx: BlockContext) =>
  ctx.db.query(`insert into test_executions (run_id, block_id, attempt) values ($1, $2, $3)`, [ctx.run.runId, ctx.block.id, ctx.run.attempt]);

/** Sleeps `ms`, or until the signal aborts (unless the config says to ignore it). */
function pause(ms: number, signal: AbortSignal, ignoreSignal: boolean): Promise<'done' | 'aborted'> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve('done'), ms);
    if (!ignoreSignal) {
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        resolve('aborted');
      }, { once: true });
    }
  });
}

function block(kind: string, fn: (ctx: BlockContext) => Promise<BlockResult>): Block {
  return {
    kind,
    validate: (config) => (config.invalid ? 'config.invalid is set' : null),
    execute: async (ctx) => {
      await record(ctx);
      return fn(ctx);
    },
  };
}

/**
 * Gates a test opens by hand, so a race between workers happens in the same order every time
 * (no sleeps): a `test.gate` block with config.gate = "g" waits at "g@<attempt>" until the test
 * calls open("g@<attempt>"); reached("g@<attempt>") says it got there.
 */
class Gates {
  private readonly at = new Map<string, { reached: boolean; opened: Promise<void>; open: () => void }>();

  private gate(name: string) {
    let g = this.at.get(name);
    if (!g) {
      let open = () => {};
      const opened = new Promise<void>((r) => (open = r));
      g = { reached: false, opened, open };
      this.at.set(name, g);
    }
    return g;
  }

  pass(name: string): Promise<void> {
    const g = this.gate(name);
    g.reached = true;
    return g.opened;
  }

  reached(name: string): boolean {
    return this.at.get(name)?.reached ?? false;
  }

  open(name: string): void {
    this.gate(name).open();
  }
}

export const gates = new Gates();

const text = (ctx: BlockContext) => String(ctx.block.config.text ?? Object.entries(ctx.inputs).map(([k, v]) => `${k}=${v.text}`).join(';'));

/**
 * test.echo   → succeeded with config.text, else its inputs as "id=text;…", plus the attempt
 * test.sleep  → waits config.ms (honours the signal unless config.ignoreSignal), then succeeds
 * test.gate   → waits, deaf to its signal, until the test opens gate `${config.gate}@${attempt}`, then succeeds
 * test.fail   → failed with config.error; test.throw throws; test.limit → limit
 * test.approval → awaiting until approved
 * test.effect → inserts its effectKey into test_effects once (on conflict nothing), then succeeds
 */
export function testBlocks(): Map<string, Block> {
  const list: Block[] = [
    block('test.echo', async (ctx) => ({ status: 'succeeded', output: { text: text(ctx), attempt: ctx.run.attempt } })),
    block('test.sleep', async (ctx) => {
      const how = await pause(Number(ctx.block.config.ms ?? 1_000), ctx.signal, Boolean(ctx.block.config.ignoreSignal));
      if (how === 'aborted') return { status: 'failed', error: 'aborted' };
      return { status: 'succeeded', output: { text: `slept ${ctx.block.id}`, attempt: ctx.run.attempt } };
    }),
    block('test.gate', async (ctx) => {
      await gates.pass(`${String(ctx.block.config.gate)}@${ctx.run.attempt}`);
      return { status: 'succeeded', output: { text: `passed ${ctx.block.id}`, attempt: ctx.run.attempt } };
    }),
    block('test.fail', async (ctx) => ({ status: 'failed', error: String(ctx.block.config.error ?? 'boom') })),
    block('test.throw', async () => {
      throw new Error('thrown inside the block');
    }),
    block('test.limit', async () => ({ status: 'limit', error: 'the account is out of credit' })),
    block('test.approval', async (ctx) => (ctx.approved ? { status: 'succeeded', output: { text: 'approved' } } : { status: 'awaiting' })),
    block('test.effect', async (ctx) => {
      await ctx.db.query(`insert into test_effects (effect_key) values ($1) on conflict do nothing`, [ctx.effectKey]);
      return { status: 'succeeded', output: { text: 'effect done' } };
    }),
  ];
  return new Map(list.map((b) => [b.kind, b]));
}

/** Billing is not the point of these tests: every charge passes. */
export const freeBilling: Billing = {
  charge: async () => ({ ok: true }),
  headroom: async () => Number.MAX_SAFE_INTEGER,
  recordStop: async () => 'credit',
};

export const noProviders: Providers = {
  llm: { name: 'test', complete: async () => ({ text: '', inputTokens: 0, outputTokens: 0 }) },
  pages: inlinePageRenderer,
  fetchText: async () => '',
};

export function testConfig(engine: Partial<EngineConfig> = {}): Config {
  const base = loadConfig({});
  return configWith({ engine: { ...base.engine, leaseMs: 2_000, pollMs: 100, ...engine } });
}

export function testEngine(db: Db, engine: Partial<EngineConfig> = {}, opts: Partial<EngineOptions> = {}): Engine {
  return new Engine({ db, config: testConfig(engine), blocks: testBlocks(), providers: noProviders, billing: freeBilling, stopGraceMs: 200, ...opts });
}
