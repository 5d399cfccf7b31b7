// A server under test, run as its own process so autocannon (in the parent) never shares its
// event loop. Modes:
//   --bare                        fastify() with one GET / route: the baseline
//   --bare-pg                     the same route running one prepared PostgreSQL query (URL in
//                                 BENCH_CHILD_DATABASE_URL): the ceiling of any endpoint that reads
//                                 the database once per request on this machine
//   --bare-pglite --data-dir D    the same route running one PGlite query (a fresh store in D): the
//                                 embedded store's floor
//   --store pglite --data-dir D   Switchboard's app (logger off, no engine) on PGlite in D
//   --store postgres              Switchboard on PostgreSQL; the URL comes in BENCH_CHILD_DATABASE_URL
//                                 (not argv, where `ps` would show a password)
//   --rate-limit memory|postgres  where the per-key request window is counted (default memory)
//   --seed SMALL,LARGE            seed two accounts with that many workflows before listening
//   --seed-only                   migrate and seed, then exit (the bench then runs the real
//                                 `switchboard serve` on that store: bench/serve-child.ts)
// Prints one line `BENCH_READY {"port":…,"seed":…}` when listening, then takes profiler commands
// on stdin. Exits on SIGTERM/SIGINT or when stdin closes (the parent died), closing app and store.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import Fastify from 'fastify';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Config } from '../src/config.js';
import { configWith } from '../src/config.js';
import type { Db } from '../src/db/db.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/open.js';
import { refreshStatistics } from '../src/db/statistics.js';
import { createApp } from '../src/server.js';
import { DONE_PREFIX, READY_PREFIX } from './child.js';
import { seedBench, type SeedInfo } from './seed.js';

interface ServerArgs {
  bare: boolean;
  barePg: boolean;
  barePglite: boolean;
  seedOnly: boolean;
  store: 'pglite' | 'postgres' | null;
  dataDir: string | null;
  rateLimit: 'memory' | 'postgres';
  seed: { small: number; large: number } | null;
}

function parse(argv: readonly string[]): ServerArgs {
  const a: ServerArgs = { bare: false, barePg: false, barePglite: false, seedOnly: false, store: null, dataDir: null, rateLimit: 'memory', seed: null };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    if (v === '--bare') a.bare = true;
    else if (v === '--bare-pg') a.barePg = true;
    else if (v === '--bare-pglite') a.barePglite = true;
    else if (v === '--seed-only') a.seedOnly = true;
    else if (v === '--store') {
      const s = argv[++i];
      if (s !== 'pglite' && s !== 'postgres') throw new Error('--store must be pglite or postgres');
      a.store = s;
    } else if (v === '--data-dir') a.dataDir = argv[++i];
    else if (v === '--rate-limit') {
      const r = argv[++i];
      if (r !== 'memory' && r !== 'postgres') throw new Error('--rate-limit must be memory or postgres');
      a.rateLimit = r;
    } else if (v === '--seed') {
      const [small, large] = (argv[++i] ?? '').split(',').map(Number);
      if (!Number.isInteger(small) || !Number.isInteger(large)) throw new Error('--seed needs SMALL,LARGE');
      a.seed = { small, large };
    } else throw new Error(`unknown argument ${v}`);
  }
  if (!a.bare && !a.barePg && !a.barePglite && !a.store) throw new Error('give --bare, --bare-pg, --bare-pglite or --store');
  if ((a.store === 'pglite' || a.barePglite) && !a.dataDir) throw new Error('--store pglite and --bare-pglite need --data-dir');
  return a;
}

interface Running {
  close(): Promise<void>;
  port: number;
  seed: SeedInfo | null;
}

async function startBare(): Promise<Running> {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { port: portOf(app.server.address()), seed: null, close: () => app.close() };
}

/** One round trip per request, nothing else: the same pool size as the PostgreSQL adapter. */
async function startBarePg(): Promise<Running> {
  const url = process.env.BENCH_CHILD_DATABASE_URL;
  if (!url) throw new Error('--bare-pg needs BENCH_CHILD_DATABASE_URL');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify({ logger: false });
  app.get('/', async () => {
    const { rows } = await pool.query({ name: 'floor', text: 'select $1::int as n', values: [1] });
    return { hello: 'world', n: rows[0].n };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: portOf(app.server.address()),
    seed: null,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

/** The embedded store's floor: one query on a PGlite of its own, as the adapter would run it. */
async function startBarePglite(dataDir: string): Promise<Running> {
  const db = new PGlite(dataDir);
  await db.waitReady;
  const app = Fastify({ logger: false });
  app.get('/', async () => {
    const { rows } = await db.query<{ n: number }>('select $1::int as n', [1]);
    return { hello: 'world', n: rows[0].n };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: portOf(app.server.address()),
    seed: null,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

async function startSwitchboard(a: ServerArgs): Promise<Running> {
  const url = process.env.BENCH_CHILD_DATABASE_URL ?? null;
  if (a.store === 'postgres' && !url) throw new Error('--store postgres needs BENCH_CHILD_DATABASE_URL');
  const config: Config = configWith({
    host: '127.0.0.1',
    port: 0,
    databaseUrl: a.store === 'postgres' ? url : null,
    dataDir: a.dataDir ?? configWith({}).dataDir,
    rateLimitStore: a.rateLimit,
  });
  const db: Db = await openDb(config);
  try {
    await migrate(db);
    const seed = a.seed ? await seedBench(db, a.seed) : null;
    // As `serve` does at start: a store without autoanalyze (PGlite) gets planner statistics.
    await refreshStatistics(db);
    if (a.seedOnly) {
      await db.close();
      return { port: 0, seed, close: async () => {} };
    }
    // logger off: request logging is an operator's choice, and the baseline logs nothing either.
    const app = await createApp(config, db, { logger: false });
    await app.listen({ host: config.host, port: config.port });
    return {
      port: portOf(app.server.address()),
      seed,
      close: async () => {
        await app.close();
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/**
 * The main thread's CPU profile over exactly the window the parent measures (not the seeding nor
 * the warm-up, as --cpu-prof would include). Written as a .cpuprofile, readable by bench/profile.ts
 * or Chrome DevTools.
 */
class Profiler {
  private session: Session | null = null;

  async start(): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 250 }); // µs
    await this.session.post('Profiler.start');
  }

  async stop(file: string): Promise<void> {
    if (!this.session) throw new Error('profiler not started');
    const { profile } = await this.session.post('Profiler.stop');
    this.session.disconnect();
    this.session = null;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(profile));
  }
}

function portOf(addr: AddressInfo | string | null): number {
  if (!addr || typeof addr === 'string') throw new Error('server has no TCP address');
  return addr.port;
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  const running = args.bare
    ? await startBare()
    : args.barePg
      ? await startBarePg()
      : args.barePglite
        ? await startBarePglite(args.dataDir!)
        : await startSwitchboard(args);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    running.close().then(
      () => process.exit(0),
      (err) => {
        console.error('bench server: close failed', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('error', shutdown);
  // Commands from the parent, one per line: "profile-start" and "profile-stop FILE".
  const profiler = new Profiler();
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    const [cmd, arg] = line.split(' ');
    const done = cmd === 'profile-start' ? profiler.start() : cmd === 'profile-stop' ? profiler.stop(arg) : null;
    done?.then(
      () => process.stdout.write(`${DONE_PREFIX}${cmd}\n`),
      (err) => process.stdout.write(`${DONE_PREFIX}${cmd} failed: ${String(err)}\n`),
    );
  });
  process.stdout.write(`${READY_PREFIX}${JSON.stringify({ port: running.port, seed: running.seed })}\n`);
}

main().catch((err) => {
  console.error('bench server failed:', err);
  process.exit(1);
});
