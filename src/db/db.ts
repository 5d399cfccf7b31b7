// The one narrow storage interface. Both adapters (PGlite, PostgreSQL) implement it; the
// differences between the stores are declared here once, as capabilities, never as
// `if (pglite)` scattered through the code.

export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one parameterised statement ($1, $2, …) and returns its rows. */
  query<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface StoreCapabilities {
  /** Several processes may open this store at once (PostgreSQL); PGlite is owned by one process. */
  readonly multiProcess: boolean;
  /** LISTEN/NOTIFY reaches other processes. */
  readonly notify: boolean;
  /** The store refreshes planner statistics by itself (autovacuum); PGlite has no background workers. */
  readonly autoAnalyze: boolean;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  readonly capabilities: StoreCapabilities;
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs fn while holding a store-wide lock named by `key` (an advisory lock on PostgreSQL; the
   * process owns PGlite, so there it is an in-process mutex).
   */
  withLock<T>(key: number, fn: (tx: Queryable) => Promise<T>): Promise<T>;
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
}

/** Advisory lock keys used across the code base, declared once. */
export const LOCKS = Object.freeze({ migrate: 726_001, seed: 726_002 });
