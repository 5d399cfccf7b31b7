// `npm run bench:backup`: what a backup of the embedded store costs the running server, for the
// two ways of taking one (docs/backup.md): PgliteDb.snapshot() ("a copy under a checkpoint": both
// locks, CHECKPOINT, the files copied to a staging dir) against PGlite's own dumpDataDir() (the
// query lock while the whole tar is built in memory). For each: the longest wait of a statement
// in a loop of them beside the backup (how long the server's store is blocked), and how far the
// process's RSS and its Buffers rise (sampled every 5 ms). The store holds an account with
// BENCH_BACKUP_CONTACTS contacts (default 200,000, the most bench/contacts.ts's insert takes):
// ~200 MB of files, a busy embedded deployment. Runs alternate between the two ways, three each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { openPglite, type PgliteDb } from '../src/db/pglite.js';
import { account, bulkInsert } from './contacts.js';
import { benchEntry } from './stores.js';

const CONTACTS = Number(process.env.BENCH_BACKUP_CONTACTS ?? 200_000);
const ROUNDS = 3;
const log = (m: string) => process.stderr.write(`${m}\n`);
const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += fs.statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

interface Cost {
  blockedMs: number;
  totalMs: number;
  /** Peak RSS above where it was: the first round's tells (V8 keeps what it took for later rounds). */
  rssRise: number;
  /** Peak of Buffers and ArrayBuffers above where they were (where a dump's tar lives). */
  buffersRise: number;
}

/**
 * Runs `backup` while a loop of `select 1` goes on beside it, as a server's requests would: the
 * longest one of those waited is the time the store was blocked.
 */
async function measure(db: PgliteDb, backup: () => Promise<unknown>): Promise<Cost> {
  global.gc?.();
  const buffers = () => process.memoryUsage().arrayBuffers;
  const base = process.memoryUsage().rss;
  const baseBuffers = buffers();
  let peak = base;
  let peakBuffers = baseBuffers;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    peakBuffers = Math.max(peakBuffers, buffers());
  }, 5);
  let finished = false;
  let blockedMs = 0;
  const probe = (async () => {
    while (!finished) {
      const p0 = performance.now();
      await db.query('select 1');
      blockedMs = Math.max(blockedMs, performance.now() - p0);
    }
  })();
  const t0 = performance.now();
  await backup();
  const totalMs = performance.now() - t0;
  finished = true;
  await probe;
  clearInterval(sampler);
  return { blockedMs, totalMs, rssRise: peak - base, buffersRise: peakBuffers - baseBuffers };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bk-bench-'));
  try {
    const db = await openPglite({ dataDir: path.join(tmp, 'data') });
    await migrate(db);
    const { id } = await account(db, 'backup');
    log(`inserting ${CONTACTS} contacts…`);
    await bulkInsert(db, id, CONTACTS);
    await db.query('checkpoint');
    const size = dirBytes(path.join(tmp, 'data', 'pgdata'));
    log(`store: ${mib(size)} in pgdata`);
    const results: Record<string, Cost[]> = { snapshot: [], dumpDataDir: [] };
    for (let i = 0; i < ROUNDS; i++) {
      results.snapshot.push(
        await measure(db, async () => {
          const snap = await db.snapshot({ pid: process.pid, start: null });
          fs.rmSync(snap.dir, { recursive: true, force: true });
        }),
      );
      results.dumpDataDir.push(
        await measure(db, async () => {
          const blob = await db.pg.dumpDataDir('none');
          fs.writeFileSync(path.join(tmp, 'dump.tar'), Buffer.from(await blob.arrayBuffer()));
        }),
      );
    }
    await db.close();
    const fmt = (c: Cost[]) =>
      `blocked ${c.map((x) => Math.round(x.blockedMs)).join('/')} ms, total ${c.map((x) => Math.round(x.totalMs)).join('/')} ms, RSS rise ${c.map((x) => mib(x.rssRise)).join('/')}, buffers rise ${c.map((x) => mib(x.buffersRise)).join('/')}`;
    console.log(`store ${mib(size)} (${CONTACTS} contacts)`);
    for (const [name, c] of Object.entries(results)) console.log(`${name}: ${fmt(c)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

benchEntry(import.meta.url, 'bench:backup', 900_000, main);
