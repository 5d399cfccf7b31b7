// Reading the row a statement returns by construction: an INSERT … RETURNING, an aggregate, an
// upsert, a row the caller has just locked or that a foreign key guarantees. Its absence is a bug
// (or a store that broke its promise), not a case to handle: ../lib/first.ts throws it, named.
import { firstOf } from '../lib/first.js';

/** The first row of `rows`; throws an internal error naming `what` when there is none. */
export function oneRow<T>(rows: readonly T[], what: string): T {
  return firstOf(rows, `a row (${what})`);
}
