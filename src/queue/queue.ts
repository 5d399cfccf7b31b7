// The one shape of a work queue (docs/architecture.md §9). Three tables are queues: workflow_runs
// and automation_runs (the engine's, leased: a worker renews its hold while it works, and releases
// it at shutdown) and outbox (the sender's: a claim is one attempt, settled once). Each is claimed
// in one statement with SKIP LOCKED, so any number of workers may share a PostgreSQL database,
// and every write after a claim is fenced on the claim (id and attempt), so a worker that lost an
// item changes nothing. The statements live in the queues' *store.ts files.
import type { Readiness } from '../db/queue-readiness.js';
import type { Queryable } from '../db/db.js';

export interface Queue<Item> {
  /** What logs call one item: "run", "automation run", "message". */
  readonly noun: string;
  /** The table that is the queue: what metrics label it by. */
  readonly table: string;
  /** Items a claim could take now, and how long the oldest has waited (metrics). */
  readiness(db: Queryable): Promise<Readiness>;
  /**
   * Claims up to `limit` ready items for `owner` in one statement (the runs fairly across
   * accounts, src/db/fair-claim.ts). `leaseMs` is the hold a leased queue gives them; the outbox
   * has none (a claim left `sending` longer than its stuck timeout becomes `unknown` instead).
   */
  claim(db: Queryable, owner: string, leaseMs: number, limit: number): Promise<Item[]>;
}

/** Who may write to a claimed run: the claim's attempt, by this owner. */
export interface Fence {
  accountId: string;
  runId: string;
  attempt: number;
  owner: string;
}

/** What a leased queue's claim returns at least. */
export interface ClaimedItem {
  account_id: string;
  id: string;
  attempt: number;
  /** Executions that threw since the item last parked (LeasedQueue.retryLater counts them). */
  failures: number;
  /** When it became ready (its run_at): the claim's wait is measured from it (metrics). */
  ready_at: Date;
}

/** A queue whose claims hold a lease that the worker renews while it works. */
export interface LeasedQueue<Item extends ClaimedItem> extends Queue<Item> {
  // Function properties, not methods: the engine hands renew and release to the Lease on their
  // own, so they must not need `this`.
  /** Extends the lease; false when the fence no longer holds (taken over, cancelled, ended). */
  renew: (db: Queryable, f: Fence, leaseMs: number) => Promise<boolean>;
  /** Ends the lease now, so another worker may take the item over at once. */
  release: (db: Queryable, f: Fence) => Promise<boolean>;
  /**
   * After an execution that threw: one more failure counted, the lease ended, and the item not
   * ready again for `delayMs` (the backoff). false when the fence no longer holds.
   */
  retryLater(db: Queryable, f: Fence, delayMs: number): Promise<boolean>;
}

export const fenceOf = (item: ClaimedItem, owner: string): Fence => ({ accountId: item.account_id, runId: item.id, attempt: item.attempt, owner });

/** The fence as the fenced statements' first four parameters ($1–$4, after a *_FENCE condition). */
export const fenceParams = (f: Fence): unknown[] => [f.accountId, f.runId, f.attempt, f.owner];
