// Keyset pagination over (sort key, id): fetch limit + 1 rows after the cursor's position; the
// extra row only says whether another page exists. Cost per page does not grow with the table.
import type { FastifyRequest } from 'fastify';
import { CursorCodec, type Position } from './cursor.js';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageRequest {
  limit: number;
  /** The position after which this page starts, or null for the first page. */
  after: Position | null;
  scope: string;
}

/** Reads limit and cursor; binds the cursor to account + route + the filters in force. */
export function pageRequest(
  codec: CursorCodec,
  request: FastifyRequest,
  query: { limit?: number; cursor?: string },
  filters: Record<string, unknown>,
): PageRequest {
  const scope = CursorCodec.scope(request.auth!.accountId, `${request.method} ${request.routeOptions.url}`, filters);
  return { limit: query.limit ?? 25, after: query.cursor !== undefined ? codec.decode(scope, query.cursor) : null, scope };
}

export function toPage<R, T>(
  codec: CursorCodec,
  req: PageRequest,
  rows: R[],
  position: (row: R) => Position,
  render: (row: R) => T,
): Page<T> {
  const has_more = rows.length > req.limit;
  const pageRows = has_more ? rows.slice(0, req.limit) : rows;
  return {
    data: pageRows.map(render),
    has_more,
    next_cursor: has_more ? codec.encode(req.scope, position(pageRows[pageRows.length - 1])) : null,
  };
}
