// The one narrow storage interface. Both adapters (PGlite, PostgreSQL) implement it; the
// differences between the stores are declared here once, as capabilities, never as
// `if (pglite)` scattered through the code.
import type { LockOwner } from './data-dir-lock.js';
import type { Snapshot } from './pglite-snapshot.js';
import type { PoolStats } from '../lib/metrics.js';

export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one parameterised statement ($1, $2, …) and returns its rows. */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** A statement runner inside one transaction. */
export interface Transaction extends Queryable {
  /**
   * Runs a script of several statements without parameters (a migration) inside this
   * transaction, as the server splits it: no statement splitting of our own.
   */
  exec(sql: string): Promise<void>;
}

export type StoreName = 'pglite' | 'postgres';

export interface StoreCapabilities {
  /** The store's name as /readyz and the start-up banner report it. Never branch on it. */
  readonly name: StoreName;
  /** Several processes may open this store at once (PostgreSQL); PGlite is owned by one process. */
  readonly multiProcess: boolean;
  /**
   * The store lives in the data directory, which one process owns (a lock file beside it):
   * operator commands go to that process over the admin socket in the same directory.
   */
  readonly ownsDataDir: boolean;
  /** LISTEN/NOTIFY reaches other processes. */
  readonly notify: boolean;
  /** The store refreshes planner statistics by itself (autovacuum); PGlite has no background workers. */
  readonly autoAnalyze: boolean;
}

// Declared here, not in the adapters, so that a caller can read them from the config before it
// opens a store (the CLI decides whether to ask a running server without loading a driver).
export const PGLITE_CAPABILITIES: StoreCapabilities = Object.freeze({
  name: 'pglite',
  multiProcess: false,
  ownsDataDir: true,
  notify: false,
  autoAnalyze: false,
});
export const POSTGRES_CAPABILITIES: StoreCapabilities = Object.freeze({
  name: 'postgres',
  multiProcess: true,
  ownsDataDir: false,
  notify: true,
  autoAnalyze: true,
});

/**
 * The schema every Switchboard table, sequence and function lives in. Every connection runs with
 * search_path = this schema, so the SQL of the code base names tables unqualified.
 */
export const SCHEMA = 'switchboard';

/**
 * How a transaction may be treated when the store ends it for a concurrency conflict.
 *
 * `replayable: true` is a promise made at the call site: fn does nothing but run statements on its
 * `tx` and compute from their answers: no message sent, no request made, no state outside fn
 * changed before it resolves, so running it again from the start after a rollback is the same as
 * running it once. A transaction that sends, calls out, or hands something to another component
 * from inside fn must not say so; its conflict error reaches the caller as before.
 */
export interface TransactionOptions {
  replayable?: boolean;
  /** What the transaction is, for the log line a retry writes ("start run", "charge"). */
  name?: string;
}

/** Where a store reports the transactions it ran again (serve passes its logger; tests a recorder). */
export interface TransactionRetryLog {
  warn(obj: object, msg: string): void;
}

/*
 * Row locks, and the one order they are taken in (a transaction that needs two of these takes
 * them in this order, so two transactions never wait for each other in a circle):
 *   1. run rows (`workflow_runs`, `automation_runs`): a worker's fenced transaction locks its run
 *      first; closing an account locks its active runs first (src/services/accounts);
 *   2. the account row (`accounts`): a start's limit checks, a charge's debit, key changes, state;
 *   3. rows a run owns or bills to (ledger rows, a key's monthly spend, contacts, messages).
 * A start takes the account row and then inserts a run: a new row, which nobody else can hold.
 * A row lock that changes no key column is `FOR NO KEY UPDATE`, never `FOR UPDATE`: every insert
 * that references the account (a run, a ledger row, an audit entry) takes `FOR KEY SHARE` on the
 * account row through its foreign key, and `FOR UPDATE` waits for that lock where `FOR NO KEY
 * UPDATE` does not. A charge (ledger insert: KEY SHARE on the account; then the debit: an UPDATE
 * of the same row) against a start's `FOR UPDATE` of that account was a deadlock (the start queued
 * behind the KEY SHARE, the debit behind the start). Starts and charges are also replayable
 * transactions, so a conflict this order does not rule out costs a retry, never an error.
 */

export interface Db extends Queryable {
  /** Tests only (which store a file runs on); code outside src/db reads `capabilities`. */
  readonly kind: StoreName;
  /** The connection pool's state (metrics); null on a store without one (PGlite). */
  poolStats?(): PoolStats | null;
  readonly capabilities: StoreCapabilities;
  /**
   * Runs fn in one transaction; commits when it resolves, rolls back when it throws. Both adapters
   * hand fn a full Transaction; the interface promises statements only, so a wrapper (a test's
   * failing store) may pass a plain Queryable. Scripts run under withLock (the migrator).
   *
   * With `replayable`, a transaction PostgreSQL ends with a deadlock (40P01) or a serialization
   * failure (40001) is rolled back and run again from the start, a few times (./tx-retry.ts).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  /** Runs a script of several statements without parameters, outside any transaction (ANALYZE). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn while holding a store-wide lock named by `key` (an advisory lock on PostgreSQL; the
   * process owns PGlite, so there it is an in-process mutex).
   */
  withLock<T>(key: number, fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Calls onNotify for every NOTIFY on `channel` (payload as sent) until the returned function is
   * called. Delivery is best effort: a listener may miss notifications while it reconnects, so
   * callers also poll.
   */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * A small pool of its own for one short statement that must never wait long (the shared
   * rate-limit counter): the server cancels a statement running past timeoutMs, and neither a
   * connection nor an answer is awaited much longer, so a locked row or a stalled server holds
   * none of the main pool's connections and none of its own for long. Absent on PGlite (one
   * process, no pool, nothing to hold).
   */
  boundedPool?(opts: { max: number; timeoutMs: number }): Queryable & { close(): Promise<void> };
  /**
   * A consistent copy of the store's files in a staging dir inside its data dir, for `owner` (the
   * process packing the backup) to pack and remove: the embedded store only (./pglite-snapshot.ts).
   * PostgreSQL has pg_dump.
   */
  snapshot?(owner: LockOwner): Promise<Snapshot>;
}

/** Advisory lock keys used across the code base, declared once. */
export const LOCKS = Object.freeze({ migrate: 726_001, seed: 726_002, setup: 726_003 });
