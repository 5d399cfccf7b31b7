// The HTTP side of every list endpoint (docs/architecture.md §7): limit and cursor in, {data,
// has_more, next_cursor} out. A cursor is bound to the account, the route and the filters in force,
// and carries the last row's position: [ISO time, id] for lists in time order, [number] for lists
// in a unique number's order. Stores take the decoded page as a KeysetPage (src/db/keyset.ts).
import type { FastifyRequest } from 'fastify';
import type { KeysetAfter, KeysetPage } from '../db/keyset.js';
import { iso } from '../lib/time.js';
import { CursorCodec, type Position } from './cursor.js';
import { authOf } from './route-kit.js';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** One list request: the page the store reads, for the caller's account, and the cursor scope. */
export interface ListRequest extends KeysetPage {
  accountId: string;
  limit: number;
  scope: string;
}

/** The query parameters every list takes (ListQuery in schemas.ts). */
export interface PageQuery {
  limit?: number;
  cursor?: string;
}

type SortKey<R> = { time: (row: R) => Date; id: (row: R) => string } | { number: (row: R) => number };

/** One list endpoint's paging: made once when its route is registered. */
export class Lister<R> {
  constructor(
    private readonly codec: CursorCodec,
    private readonly key: SortKey<R>,
  ) {}

  /**
   * Reads limit and cursor; binds the cursor to account + route + the filters in force. The
   * account is the API key's; the hub passes its session's account.
   */
  start(request: FastifyRequest, query: PageQuery, filters: Record<string, unknown>, accountId: string = authOf(request).accountId): ListRequest {
    const scope = CursorCodec.scope(accountId, `${request.method} ${request.routeOptions.url}`, filters);
    const limit = query.limit ?? 25;
    const after = query.cursor !== undefined ? this.position(this.codec.decode(scope, query.cursor)) : null;
    return { accountId, limit, fetch: limit + 1, after, scope };
  }

  /** The page of rows read with `req.fetch` (one more than the page: it says whether more follow). */
  page<T>(req: ListRequest, rows: R[], render: (row: R) => T): Page<T> {
    const has_more = rows.length > req.limit;
    const pageRows = has_more ? rows.slice(0, req.limit) : rows;
    const last = pageRows.at(-1);
    return {
      data: pageRows.map(render),
      has_more,
      next_cursor: has_more && last !== undefined ? this.codec.encode(req.scope, this.cursorOf(last)) : null,
    };
  }

  private cursorOf(row: R): Position {
    return 'time' in this.key ? [iso(this.key.time(row)), this.key.id(row)] : [this.key.number(row)];
  }

  private position(p: Position): KeysetAfter {
    return 'time' in this.key ? { sort: new Date(String(p[0])), id: String(p[1]) } : { sort: Number(p[0]), id: null };
  }
}

/** A list newest (or most recently changed) first: `time` descending, ties broken by id. */
export function listByTime<R extends { id: string }>(codec: CursorCodec, time: (row: R) => Date): Lister<R> {
  return new Lister<R>(codec, { time, id: rowId });
}

/** A list in the order of a number unique within it. */
export function listByNumber<R>(codec: CursorCodec, number: (row: R) => number): Lister<R> {
  return new Lister<R>(codec, { number });
}

/** A list's search (NameSearch) as a store takes it: trimmed, undefined when blank. */
export const searchText = (q: string | undefined): string | undefined => q?.trim() || undefined;

const rowId = (row: { id: string }): string => row.id;
