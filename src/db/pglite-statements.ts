// Named prepared statements over PGlite's wire protocol. PGlite's own query() parses, describes
// and plans every statement on every call (six protocol round trips into the WASM module); that
// was most of the CPU of a keyed read on the embedded store. Here each distinct SQL text is
// parsed and described once under a name, and every later call is one Bind + Execute + Sync.
// The PostgreSQL adapter gets the same effect from `pg`'s named statements.
import { protocol, types, type PGlite } from '@electric-sql/pglite';
import { readExecuteResponse, type Notification } from './pglite-wire.js';

interface Prepared {
  name: string;
  paramTypes: number[];
  fields: Array<{ name: string; type: number }>;
}

/** What PGlite's parser hands back for the messages we read (the rest is ignored). */
interface Message {
  name: string;
  dataTypeIDs?: number[];
  fields?: unknown[];
}

// Raised when DDL changed a prepared statement's result columns; PostgreSQL re-plans on its own
// in every other case (a dropped and re-created table, new indexes, fresh statistics).
const CACHED_PLAN_CHANGED = '0A000';

/**
 * Statements kept prepared. Every SQL text of the code base fits many times over; texts built
 * per call (a multi-row insert of N rows) would otherwise pile up in the database session, so
 * the least recently used are closed beyond this.
 */
export const MAX_PREPARED = 500;

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** The error PGlite's own path throws for this response: its reader's DatabaseError, as parsed. */
function databaseError(bytes: Uint8Array): Error {
  let error: Error | null = null;
  new protocol.Parser().parse(bytes, (m: unknown) => {
    if (!error && m instanceof protocol.messages.DatabaseError) error = m;
  });
  return error ?? new Error('PGlite response: an ErrorResponse that could not be read');
}

export class PreparedStatements {
  private readonly cache = new Map<string, Prepared>();
  /** Names to close at the next prepare (their SQL was prepared again under a new name). */
  private stale: string[] = [];
  private seq = 0;

  constructor(
    private readonly pg: PGlite,
    /**
     * A NOTIFY in a statement's response. PGlite's reader never sees these responses, so its
     * listeners would not hear of it: the adapter delivers it to them (pglite.ts).
     */
    private readonly onNotification: (n: Notification) => void = () => {},
  ) {}

  /**
   * Runs one statement. The caller holds PGlite's query lock (and, outside a transaction, its
   * transaction lock). `retryable` is false inside a transaction: after an error there, the
   * transaction is aborted and a retry could only fail again.
   */
  async run<T>(sql: string, params: readonly unknown[] | undefined, retryable: boolean): Promise<T[]> {
    let p = this.cache.get(sql);
    if (p) {
      // Most recently used last: Map keeps insertion order, so the first entry is the eviction.
      this.cache.delete(sql);
      this.cache.set(sql, p);
    } else {
      p = await this.prepare(sql);
    }
    try {
      return await this.execute<T>(p, params ?? []);
    } catch (err) {
      if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
      // The old statement is closed with the next prepare; a fresh one is prepared.
      this.cache.delete(sql);
      this.stale.push(p.name);
      if (!retryable) throw err;
      return await this.execute<T>(await this.prepare(sql), params ?? []);
    }
  }

  /** How many statements are prepared now (tests). */
  get size(): number {
    return this.cache.size;
  }

  private async prepare(sql: string): Promise<Prepared> {
    const name = `sb_${++this.seq}`;
    const parts = this.stale.map((old) => protocol.serialize.close({ type: 'S', name: old }));
    this.stale = [];
    while (this.cache.size >= MAX_PREPARED) {
      const [oldest, old] = this.cache.entries().next().value as [string, Prepared];
      this.cache.delete(oldest);
      parts.push(protocol.serialize.close({ type: 'S', name: old.name }));
    }
    parts.push(protocol.serialize.parse({ name, text: sql }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync());
    const messages = (await this.pg.execProtocolStream(concat(parts), { syncToFs: false })) as Message[];
    let paramTypes: number[] = [];
    let fields: Prepared['fields'] = [];
    for (const m of messages) {
      if (m.name === 'parameterDescription') paramTypes = m.dataTypeIDs ?? [];
      else if (m.name === 'rowDescription') {
        fields = (m.fields as Array<{ name: string; dataTypeID: number }>).map((f) => ({ name: f.name, type: f.dataTypeID }));
      }
    }
    const prepared = { name, paramTypes, fields };
    this.cache.set(sql, prepared);
    return prepared;
  }

  private async execute<T>(p: Prepared, params: readonly unknown[]): Promise<T[]> {
    const serializers = this.pg.serializers;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const type = p.paramTypes[i];
      const serialize = type === undefined ? undefined : serializers[type];
      return serialize ? serialize(v) : String(v);
    });
    // The raw response, read in place (./pglite-wire.ts): PGlite's reader (which its other
    // paths, execProtocolRaw included, run over every response) copies every field. Its chunks
    // are views of the WASM memory, valid only during the call: each is copied.
    const chunks: Uint8Array[] = [];
    await this.pg.execProtocolRawStream(
      concat([protocol.serialize.bind({ statement: p.name, values }), protocol.serialize.execute({}), protocol.serialize.sync()]),
      { syncToFs: false, onRawData: (chunk: Uint8Array) => void chunks.push(chunk.slice()) },
    );
    const [only] = chunks;
    const bytes = only && chunks.length === 1 ? only : concat(chunks);
    const response = readExecuteResponse(bytes);
    for (const n of response.notifications) queueMicrotask(() => this.onNotification(n));
    if (response.failed) throw databaseError(bytes);
    const parsers = this.pg.parsers;
    return response.rows.map((values) => {
      const row: Record<string, unknown> = {};
      // A data row has one value per field of the row description (the server sends them so).
      for (const [i, field] of p.fields.entries()) row[field.name] = types.parseType(values[i] ?? null, field.type, parsers);
      return row as T;
    });
  }
}
