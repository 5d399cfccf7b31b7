// Pipelined connections ("lanes") for the statements a PostgreSQL store runs outside a
// transaction: most of them are the API's reads (the key lookup, a workflow, a list page).
//
// Why: through the pool, each statement has a connection to itself, so each one wakes a sleeping
// PostgreSQL backend and waits for it; on a 2-core VM that wake-up cost more than the statements
// (the server's profile: `writev` to PostgreSQL's socket 39% of busy time on a list; PostgreSQL's
// own CPU 217 µs a list request, 77 µs a `{id}`). A lane is one connection in pg's pipeline mode:
// statements issued while others are in flight go out behind them without waiting, and the
// backend works through them without sleeping in between. Measured side by side on
// `switchboard serve` (50 connections, 3 interleaved runs each): PostgreSQL's CPU per request
// fell to 88-116 µs (list) and 34-37 µs (`{id}`); `{id}` answered 30-60% more requests a second.
//
// Statements given to a lane within one turn of the event loop leave in one write (hold()): under
// load, requests arrive in many I/O callbacks per turn, and each write wakes the backend anew.
// Measured side by side (`npm run bench -- --store postgres`, 2 interleaved pairs): `{id}` 59-67%
// -> 75-76% of the floor, PostgreSQL's CPU per request 19-20 -> 11-12 µs.
//
// Each statement still has its own Sync, so an error fails only that statement. The one risk of a
// pipeline is a slow statement holding up those queued behind it, so a lane takes a statement only
// while its oldest one in flight is younger than `stallMs`; when every lane is busy that long (or
// none is connected) the statement goes to the pool as before. Transactions, scripts and LISTEN
// never use a lane.
import pg from 'pg';

/** How a lane's statement is sent: the pool's own statement config (named, prepared per connection). */
export type LaneStatement = pg.QueryConfig;

interface Lane {
  readonly client: pg.Client;
  /** Resolves once connected; rejects if connecting failed (the lane is then dead). */
  ready: Promise<void>;
  /** Start times (performance.now()) of the statements in flight, oldest first: results come back in order. */
  readonly started: number[];
  dead: boolean;
  /** Statements written since the last flush wait in the socket's buffer (see hold()). */
  held: boolean;
}

/** Where pg's Client keeps its socket (not in its types). */
interface ClientInternals {
  connection: { stream: { cork(): void; uncork(): void } };
}

export interface LaneOptions {
  /** How many pipelined connections at most (0: none, every statement goes to the pool). */
  lanes: number;
  /** A lane whose oldest statement in flight is older than this takes no more. */
  stallMs: number;
  /** A new, unconnected client in pipeline mode (the store's connection settings). */
  newClient: () => pg.Client;
}

export class PgLanes {
  private readonly lanes: Lane[] = [];
  private closed = false;

  constructor(private readonly opts: LaneOptions) {}

  /** Statements in flight on all lanes (metrics). */
  inFlight(): number {
    return this.lanes.reduce((n, l) => n + l.started.length, 0);
  }

  /**
   * Runs the statement on a lane and resolves with its rows, or resolves null without sending it
   * when no lane may take it now (the caller then uses the pool).
   */
  async query<T>(statement: LaneStatement): Promise<T[] | null> {
    const lane = this.pick();
    if (!lane) return null;
    const start = performance.now();
    lane.started.push(start);
    try {
      try {
        await lane.ready;
      } catch {
        return null; // not connected, nothing sent: the pool answers (or fails as the lane did)
      }
      this.hold(lane);
      const res = await lane.client.query(statement);
      return res.rows as T[];
    } finally {
      // In order on a live lane; a lane that failed is dropped whole, so any entry may go.
      const i = lane.started.indexOf(start);
      if (i >= 0) lane.started.splice(i, 1);
    }
  }

  /**
   * Statements a lane is given in one turn of the event loop leave in one write: the socket is
   * corked now and uncorked once this turn's I/O callbacks have run (setImmediate, not nextTick:
   * each request arrives in a callback of its own, and the batch should span them). pg corks each
   * statement's messages itself; this holds them until the turn ends. A write to a socket is a
   * system call and wakes the backend, the dearest part of a statement on this VM.
   */
  private hold(lane: Lane): void {
    if (lane.held) return;
    const stream = (lane.client as unknown as ClientInternals).connection.stream;
    lane.held = true;
    stream.cork();
    setImmediate(() => {
      lane.held = false;
      stream.uncork();
    });
  }

  /** The live lane with the fewest statements in flight, opening one while under the limit and all are busy. */
  private pick(): Lane | null {
    if (this.closed || this.opts.lanes <= 0) return null;
    const now = performance.now();
    let best: Lane | null = null;
    let live = 0;
    for (const lane of this.lanes) {
      if (lane.dead) continue;
      live++;
      const oldest = lane.started[0] ?? now;
      if (now - oldest > this.opts.stallMs) continue;
      if (!best || lane.started.length < best.started.length) best = lane;
    }
    if ((!best || best.started.length > 0) && live < this.opts.lanes) return this.open();
    return best;
  }

  private open(): Lane {
    // Dead lanes are dropped here, the only place the list grows.
    for (let i = this.lanes.length - 1; i >= 0; i--) if (this.lanes[i]?.dead) this.lanes.splice(i, 1);
    const client = this.opts.newClient();
    const lane: Lane = { client, ready: Promise.resolve(), started: [], dead: false, held: false };
    const die = () => {
      lane.dead = true;
    };
    // A connection that fails fails its statements in flight (pg rejects them); the next statement
    // opens another lane.
    client.on('error', die);
    client.on('end', die);
    lane.ready = client.connect().then(
      () => {},
      (err: unknown) => {
        die();
        client.end().catch(() => {});
        throw err;
      },
    );
    lane.ready.catch(() => {}); // observed by the statements waiting for it
    this.lanes.push(lane);
    return lane;
  }

  /** Lanes open now (tests). */
  get openLanes(): number {
    return this.lanes.filter((l) => !l.dead).length;
  }

  /** The backend process ids of the lanes open now (tests: a connection to kill). */
  async backendPids(): Promise<number[]> {
    const pids: number[] = [];
    for (const lane of this.lanes) {
      if (lane.dead) continue;
      await lane.ready;
      pids.push((lane.client as unknown as { processID: number }).processID);
    }
    return pids;
  }

  /** Ends every lane once its statements in flight are answered. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(
      this.lanes.map(async (lane) => {
        lane.dead = true;
        await lane.ready.catch(() => {});
        await lane.client.end();
      }),
    );
  }
}
