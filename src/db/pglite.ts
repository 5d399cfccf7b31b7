// Embedded store: PGlite (PostgreSQL compiled to WASM) in a data directory that exactly one
// process owns. The ownership is a lock file beside the data (data-dir-lock.ts); a second process
// fails fast while the first lives.
import { PGlite, types } from '@electric-sql/pglite';
import { PGLITE_CAPABILITIES, SCHEMA, type Db, type Transaction, type TransactionOptions, type TransactionRetryLog } from './db.js';
import { runTransaction } from './tx-retry.js';
import { pgliteDataPath } from './store-config.js';
import { copyTree } from '../lib/file-tree.js';
import { NOT_COPIED, intoStaging, newStagingDir, removeLeftoverStaging, type Snapshot } from './pglite-snapshot.js';
import type { LockOwner } from './data-dir-lock.js';
import { PreparedStatements } from './pglite-statements.js';
import { parseUtcTimestamp, TIMESTAMPTZ_OID } from './timestamps.js';

/** PGlite's sessions run in UTC too: the fast path of ./timestamps.ts, PGlite's own parser otherwise. */
const parseTimestamptz = (v: string): Date => parseUtcTimestamp(v, (x) => types.parseType(x, TIMESTAMPTZ_OID) as Date);
import { DataDirLockedError, takeDataDirLock } from './data-dir-lock.js';

export { DataDirLockedError, takeDataDirLock };

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

/**
 * PostgreSQL's default 128 MB of shared buffers lives inside PGlite's WASM memory, so the process
 * held ~100 MiB more from its first query and took ~0.3 s longer to start. The data dir's files are
 * in the OS page cache anyway (PGlite reads them through NODEFS): measured on the bench's 101,000
 * workflows, list and get latencies were the same with 16 MB as with 128 MB. A first measurement
 * of the engine's write-heavy work (bench:outbox) with 16 MB showed ~15% less; repeated side by
 * side on a quiet machine (three runs each) 16 and 32 MB gave the same emails/s. 24 MB: idle RSS
 * of `switchboard serve` 12–16 MiB lower than with 32 MB (eight interleaved starts each), the
 * contacts search at 100,000 unchanged.
 */
export const PGLITE_SHARED_BUFFERS = '24MB';

export async function openPglite(opts: PgliteOptions): Promise<PgliteDb> {
  const release = opts.dataDir && opts.lock !== false ? takeDataDirLock(opts.dataDir) : () => {};
  try {
    // 'memory://' (not undefined): PGlite ignores loadDataDir when given no data dir at all.
    const pg = new PGlite(opts.dataDir ? pgliteDataPath(opts.dataDir) : 'memory://', {
      loadDataDir: opts.loadDataDir,
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
      parsers: { [TIMESTAMPTZ_OID]: parseTimestamptz },
    });
    await pg.waitReady;
    // The tables' schema (db.ts SCHEMA) for the whole session; PostgreSQL sessions get it as a
    // connection option. A schema that does not exist yet (a new store) is skipped until the
    // migrator creates it.
    await pg.exec(`set search_path = ${SCHEMA}`);
    // A backup killed before it removed its staging copy left it here (pglite-snapshot.ts).
    if (opts.dataDir) removeLeftoverStaging(opts.dataDir);
    return new PgliteDb(pg, release, opts.dataDir);
  } catch (err) {
    release();
    throw err;
  }
}

/** The channel as PostgreSQL names it in a notification: unquoted identifiers fold to lower case. */
function postgresName(channel: string): string {
  return channel.length > 1 && channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase();
}

export class PgliteDb implements Db {
  /** One connection in this process, no pool. */
  poolStats(): null {
    return null;
  }

  readonly kind = 'pglite' as const;
  readonly capabilities = PGLITE_CAPABILITIES;
  private readonly lockMutex = new Mutex();
  private readonly statements: PreparedStatements;
  private closed = false;
  /**
   * listen()'s callbacks by channel, for the notifications in our prepared statements' responses
   * (./pglite-statements.ts); PGlite delivers those of its own paths (a transaction's COMMIT).
   */
  private readonly listeners = new Map<string, Set<(payload: string) => void>>();

  constructor(
    readonly pg: PGlite,
    private readonly releaseLock: () => void,
    /** The data dir (null in memory): a backup's staging copy goes inside it. */
    private readonly dataDir: string | null = null,
  ) {
    this.statements = new PreparedStatements(pg, (n) => {
      for (const cb of this.listeners.get(n.channel) ?? []) cb(n.payload);
    });
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

  /** Where replayed transactions are reported (serve sets its logger; nothing by default). */
  retryLog: TransactionRetryLog | undefined;

  /**
   * One connection, so no deadlock between this store's own transactions; `replayable` is honoured
   * all the same (one rule for both stores, and a conflict code from anywhere is handled alike).
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>, opts?: TransactionOptions): Promise<T> {
    return runTransaction(() => this.transactionOnce(fn), opts, this.retryLog);
  }

  private transactionOnce<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
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
        // PGlite's own: it takes the query lock and runs the script through the simple protocol.
        exec: async (sql: string) => {
          await tx.exec(sql);
        },
      }),
    );
  }

  withLock<T>(_key: number, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.lockMutex.run(() => this.transaction(fn));
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    // In-process: a NOTIFY committed by any query on this instance reaches the callback.
    const unsubscribe = await this.pg.listen(channel, onNotify);
    // Each listen() call is its own subscription, even with the same callback.
    const subscription = (payload: string) => onNotify(payload);
    const name = postgresName(channel);
    const set = this.listeners.get(name) ?? new Set();
    set.add(subscription);
    this.listeners.set(name, set);
    return async () => {
      set.delete(subscription);
      if (set.size === 0 && this.listeners.get(name) === set) this.listeners.delete(name);
      if (!this.closed) await unsubscribe();
    };
  }

  /**
   * A consistent copy of the store's files in a new staging dir inside the data dir, for `owner`
   * to pack and remove (pglite-snapshot.ts). Both locks, as query() takes them, so no statement
   * runs and no transaction is open while the files are copied; CHECKPOINT first, so the copy
   * needs no WAL replay. Statements wait for the copy (blockedMs); the HTTP server does not.
   */
  async snapshot(owner: LockOwner): Promise<Snapshot> {
    const dataDir = this.dataDir;
    if (!dataDir) throw new Error('an in-memory store has no files to copy');
    removeLeftoverStaging(dataDir);
    await this.pg._checkReady();
    return intoStaging(newStagingDir(dataDir, owner), (copyDir) =>
      this.pg._runExclusiveTransaction(() =>
        this.pg._runExclusiveQuery(async () => {
          const locked = performance.now();
          await this.statements.run('checkpoint', undefined, true);
          const copied = await copyTree(pgliteDataPath(dataDir), copyDir, NOT_COPIED);
          return { ...copied, blockedMs: Math.round(performance.now() - locked) };
        }),
      ),
    );
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
