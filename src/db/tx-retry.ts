// Transactions PostgreSQL ends for a concurrency conflict, run again. A deadlock (40P01: the
// server picked this transaction as the victim of a lock cycle) or a serialization failure
// (40001) says nothing about the transaction's own statements: the same work, started again after
// the rollback, normally goes through. Only transactions their call site marks `replayable`
// (src/db/db.ts TransactionOptions: statements only, no effect outside the transaction) are run
// again, at most TX_MAX_ATTEMPTS times in all, after a short jittered wait so the transactions
// that collided do not collide again; after the last attempt the conflict reaches the caller.
import { backoffMs } from '../lib/retry.js';
import type { TransactionOptions, TransactionRetryLog } from './db.js';

/** Attempts in all, the first included. Five deadlocks in a row means something else is wrong. */
export const TX_MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 10;
const RETRY_MAX_MS = 200;

/** SQLSTATEs after which the whole transaction may simply be run again. */
const CONFLICT_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** The SQLSTATE of a deadlock or serialization failure, or null for any other error. */
export function concurrencyConflict(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICT_CODES.has(code) ? code : null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `once` (one whole transaction: begin, fn, commit or rollback) and, when it is replayable
 * and the store ended it for a conflict, runs it again. Every retry is logged with the
 * transaction's name, the code and the attempt; a conflict that outlasts the attempts is logged
 * once more and thrown.
 */
export async function runTransaction<T>(
  once: () => Promise<T>,
  opts: TransactionOptions | undefined,
  log: TransactionRetryLog | undefined,
): Promise<T> {
  if (!opts?.replayable) return once();
  const name = opts.name ?? 'transaction';
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (err) {
      const code = concurrencyConflict(err);
      if (code === null) throw err;
      if (attempt >= TX_MAX_ATTEMPTS) {
        log?.warn({ transaction: name, code, attempts: attempt }, 'a transaction kept meeting concurrency conflicts on the store: given up');
        throw err;
      }
      const waitMs = backoffMs(attempt, RETRY_BASE_MS, RETRY_MAX_MS);
      log?.warn(
        { transaction: name, code, attempt, retry_in_ms: waitMs },
        'a transaction met a concurrency conflict on the store (deadlock or serialization failure): rolled back and run again',
      );
      await sleep(waitMs);
    }
  }
}
