// PostgreSQL store: a `pg` pool. Any number of processes may share the database.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { DEFAULT_PIPELINE_LANES } from '../config.js';
import { POSTGRES_CAPABILITIES, SCHEMA, type Db, type Transaction, type TransactionOptions, type TransactionRetryLog } from './db.js';
import { PgLanes } from './pg-lanes.js';
import type { PoolStats } from '../lib/metrics.js';
import { runTransaction } from './tx-retry.js';
import { parseUtcTimestamp, TIMESTAMPTZ_OID } from './timestamps.js';

const TIMESTAMPTZ = TIMESTAMPTZ_OID;
const defaultTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (v: string) => Date;
/** Sessions run in UTC (see `options` below): the fast path of ./timestamps.ts, `pg`'s parser otherwise. */
export function parseTimestamptz(v: string): Date {
  return parseUtcTimestamp(v, defaultTimestamptz);
}

// int8 (bigint) as a JS number: micros and counts stay far below 2^53, and PGlite does the same.
const parseInt8 = (v: string): number => Number(v);
/** Asked once per column of every result (pg looks its parsers up per query): no allocation here. */
function typeParser(oid: number, format?: 'text' | 'binary'): unknown {
  if (oid === 20) return parseInt8;
  if (oid === TIMESTAMPTZ && format !== 'binary') return parseTimestamptz;
  return pg.types.getTypeParser(oid, format);
}
const types = {
  getTypeParser: typeParser as typeof pg.types.getTypeParser,
};
/**
 * Every session in UTC (timestamps render one way, whatever the server's default zone) and with
 * the tables' schema as its search path (db.ts SCHEMA), so statements name tables unqualified.
 */
const SESSION_OPTIONS = `-c TimeZone=UTC -c search_path=${SCHEMA}`;

/**
 * A lane whose oldest statement has been in flight this long takes no more (./pg-lanes.ts): long
 * beyond an API read's few milliseconds, even queued behind others at full load.
 */
const LANE_STALL_MS = 50;

// Parameterised statements are prepared once per connection under a name derived from their text:
// the server parses and plans the hot queries (key lookup, lists) once, not on every request.
const names = new Map<string, string>();
function statement(sql: string, params?: readonly unknown[]): pg.QueryConfig {
  if (!params || params.length === 0) return { text: sql };
  let name = names.get(sql);
  if (!name) {
    name = 'sb_' + createHash('sha1').update(sql).digest('hex').slice(0, 20);
    names.set(sql, name);
  }
  return { name, text: sql, values: params as unknown[] };
}

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  readonly capabilities = POSTGRES_CAPABILITIES;
  readonly pool: pg.Pool;
  /** Pipelined connections for statements outside a transaction (./pg-lanes.ts); the pool when none may take one. */
  readonly lanes: PgLanes;

  poolStats(): PoolStats {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { inUse: totalCount - idleCount, idle: idleCount, waiting: waitingCount, laneDepth: this.lanes.inFlight() };
  }
  private closed = false;
  private readonly listeners = new Set<() => Promise<void>>();

  constructor(
    private readonly connectionString: string,
    max = 10,
    /** Bounds for a boundedPool: statement_timeout on the server, and client-side waits. */
    timeoutMs?: number,
    /** Pipelined connections besides the pool (PG_PIPELINE_LANES); a bounded pool has none. */
    lanes = DEFAULT_PIPELINE_LANES,
  ) {
    const bounds = timeoutMs
      ? {
          statement_timeout: timeoutMs,
          // A server that stops answering altogether (statement_timeout cannot fire): the client
          // gives up a little later and the pool discards that connection.
          query_timeout: timeoutMs + 1_000,
          connectionTimeoutMillis: timeoutMs,
          // One connection is kept open: opening one can take longer than its callers wait.
          min: 1,
        }
      : {};
    this.pool = new pg.Pool({ connectionString, max, types, options: SESSION_OPTIONS, ...bounds });
    // An idle client that errors (server restart) must not crash the process; the pool drops it.
    this.pool.on('error', () => {});
    this.lanes = new PgLanes({
      // A bounded pool's client-side timeout would end a pipelined connection and every statement on it.
      lanes: timeoutMs ? 0 : lanes,
      stallMs: LANE_STALL_MS,
      newClient: () => new pg.Client({ connectionString, types, options: SESSION_OPTIONS, pipeline: true }),
    });
  }

  boundedPool(opts: { max: number; timeoutMs: number }): PostgresDb {
    const db = new PostgresDb(this.connectionString, opts.max, opts.timeoutMs);
    db.pool.query('select 1').catch(() => {}); // opens the kept connection now, not on the first request
    return db;
  }

  async query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    const config = statement(sql, params);
    const rows = await this.lanes.query<T>(config);
    if (rows) return rows;
    const res = await this.pool.query(config);
    return res.rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  /** Where replayed transactions are reported (serve sets its logger; nothing by default). */
  retryLog: TransactionRetryLog | undefined;

  transaction<T>(fn: (tx: Transaction) => Promise<T>, opts?: TransactionOptions): Promise<T> {
    return runTransaction(() => this.transactionOnce(fn), opts, this.retryLog);
  }

  private async transactionOnce<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await fn({
        query: async <R>(sql: string, params?: readonly unknown[]) =>
          (await client.query(statement(sql, params))).rows as R[],
        // No values: `pg` sends the script as one simple-protocol query, several statements allowed.
        exec: async (sql: string) => {
          await client.query(sql);
        },
      });
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  withLock<T>(key: number, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [key]);
      return fn(tx);
    });
  }

  /**
   * LISTEN needs a connection of its own that stays open (a pooled one goes back to the pool).
   * On an error or a dropped connection it reconnects with a growing delay, and calls onNotify
   * once after reconnecting, since notifications sent in the gap are lost.
   */
  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let client: pg.Client | null = null;
    let stopped = false;
    let retry: NodeJS.Timeout | null = null;
    let delay = 100;
    const discard = (c: pg.Client) => {
      c.removeAllListeners();
      c.on('error', () => {}); // a late error from a client being discarded must not crash us
      c.end().catch(() => {});
    };
    const reconnectLater = () => {
      if (stopped || retry) return;
      retry = setTimeout(() => {
        retry = null;
        connect().then(
          () => onNotify(''),
          () => reconnectLater(),
        );
      }, delay);
      delay = Math.min(delay * 2, 5_000);
    };
    const connect = async (): Promise<void> => {
      const c = new pg.Client({ connectionString: this.connectionString, types, options: SESSION_OPTIONS });
      const lost = () => {
        discard(c);
        if (client === c) client = null;
        reconnectLater();
      };
      c.on('notification', (msg) => {
        if (msg.channel === channel) onNotify(msg.payload ?? '');
      });
      c.on('error', lost);
      c.on('end', lost);
      try {
        await c.connect();
        await c.query(`listen ${pg.escapeIdentifier(channel)}`);
      } catch (err) {
        discard(c);
        throw err;
      }
      if (stopped) return discard(c);
      client = c;
      delay = 100;
    };
    await connect();
    const unlisten = async () => {
      stopped = true;
      this.listeners.delete(unlisten);
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    };
    this.listeners.add(unlisten);
    return unlisten;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.listeners].map((u) => u()));
    await this.lanes.close();
    await this.pool.end();
  }
}
