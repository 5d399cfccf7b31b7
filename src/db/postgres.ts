// PostgreSQL store: a `pg` pool. Any number of processes may share the database.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable } from './db.js';

// int8 (bigint) as a JS number: micros and counts stay far below 2^53, and PGlite does the same.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

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
  readonly capabilities = Object.freeze({ multiProcess: true, notify: true });
  readonly pool: pg.Pool;
  private closed = false;

  constructor(connectionString: string, max = 10) {
    this.pool = new pg.Pool({ connectionString, max, types });
    // An idle client that errors (server restart) must not crash the process; the pool drops it.
    this.pool.on('error', () => {});
  }

  async query<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    const res = await this.pool.query(statement(sql, params));
    return res.rows as T[];
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await fn({
        query: async <R>(sql: string, params?: readonly unknown[]) =>
          (await client.query(statement(sql, params))).rows as R[],
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

  withLock<T>(key: number, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [key]);
      return fn(tx);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
