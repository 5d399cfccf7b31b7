// Embedded store: PGlite (PostgreSQL compiled to WASM) in a data directory that exactly one
// process owns. The ownership is a lock file beside the data; a second process fails fast.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';
import { PreparedStatements } from './pglite-statements.js';

export class DataDirLockedError extends Error {}

const LOCK_FILE = 'switchboard.lock';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data-dir lock: a file with our pid, created exclusively. A lock left by a dead process is taken over. */
export function takeDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processAlive(holder)) {
        throw new DataDirLockedError(
          `the data directory ${dataDir} is in use by process ${holder}; ` +
            'stop it, or run operator commands while it serves (they go through its admin socket)',
        );
      }
      fs.rmSync(file, { force: true }); // stale lock from a process that died
    }
  }
  throw new DataDirLockedError(`could not take the lock on ${dataDir}`);
}

/**
 * PGlite runs queries on this thread and settles them as microtasks, so a loop of queries (the
 * engine draining a backlog) would never let timers, sockets or HTTP requests in. Every query
 * gives the event loop a turn.
 */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export interface PgliteOptions {
  /** A data directory, or null for an in-memory database (tests). */
  dataDir: string | null;
  /** A dumped data dir (tests start every file from a migrated template). */
  loadDataDir?: Blob | File;
  /** Skip the lock file (in-memory databases have nothing to lock). */
  lock?: boolean;
}

export async function openPglite(opts: PgliteOptions): Promise<PgliteDb> {
  const release = opts.dataDir && opts.lock !== false ? takeDataDirLock(opts.dataDir) : () => {};
  try {
    // 'memory://' (not undefined): PGlite ignores loadDataDir when given no data dir at all.
    const pg = new PGlite(opts.dataDir ? path.join(opts.dataDir, 'pgdata') : 'memory://', {
      loadDataDir: opts.loadDataDir,
    });
    await pg.waitReady;
    return new PgliteDb(pg, release);
  } catch (err) {
    release();
    throw err;
  }
}

export class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  readonly capabilities = Object.freeze({ multiProcess: false, notify: false, autoAnalyze: false });
  private readonly lockMutex = new Mutex();
  private readonly statements: PreparedStatements;
  private closed = false;

  constructor(
    readonly pg: PGlite,
    private readonly releaseLock: () => void,
  ) {
    this.statements = new PreparedStatements(pg);
  }

  /** Outside a transaction: both of PGlite's locks, as its own query() takes them. */
  async query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    await this.pg._checkReady();
    const rows = await this.pg._runExclusiveTransaction(() =>
      this.pg._runExclusiveQuery(async () => {
        const result = await this.statements.run<T>(sql, params, true);
        await this.pg.syncToFs();
        return result;
      }),
    );
    await yieldToEventLoop();
    return rows;
  }

  async exec(sql: string): Promise<void> {
    await this.pg.exec(sql);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.pg.transaction(async (tx) =>
      fn({
        // PGlite's transaction lock is held for the whole callback; each statement takes the
        // query lock, as tx.query() would.
        query: async <R>(sql: string, params?: readonly unknown[]) => {
          if (tx.closed) throw new Error('Transaction is closed');
          const rows = await this.pg._runExclusiveQuery(() => this.statements.run<R>(sql, params, false));
          await yieldToEventLoop();
          return rows;
        },
      }),
    );
  }

  withLock<T>(_key: number, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.lockMutex.run(() => this.transaction(fn));
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    // In-process: a NOTIFY committed by any query on this instance reaches the callback.
    const unsubscribe = await this.pg.listen(channel, onNotify);
    return async () => {
      if (!this.closed) await unsubscribe();
    };
  }

  /** A copy of the whole database (tests build a migrated template once and load it per file). */
  dump(): Promise<File | Blob> {
    return this.pg.dumpDataDir('none');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.pg.close();
    } finally {
      this.releaseLock();
    }
  }
}
