// PostgreSQL's pipelined connections (src/db/pg-lanes.ts): statements outside a transaction run
// on a lane, many at once and each with its own answer and its own error; a lane stuck behind a
// slow statement takes no more (the pool answers); a lane whose connection dies is replaced;
// transactions and bounded pools never use one. PostgreSQL only (PGlite has one session), so this
// file runs on the PostgreSQL leg only.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDb } from '../../src/db/postgres.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb | null = null;
const opened: PostgresDb[] = [];

beforeAll(async () => {
  t = await freshDb();
});
afterAll(async () => {
  await Promise.allSettled(opened.map((d) => d.close()));
  await t?.close();
});

function store(lanes: number): PostgresDb {
  const db = new PostgresDb(t!.url!, 4, undefined, lanes);
  opened.push(db);
  return db;
}

const pidOf = async (q: { query<T>(sql: string, p?: readonly unknown[]): Promise<T[]> }): Promise<number> =>
  (await q.query<{ pid: number }>('select pg_backend_pid() as pid'))[0].pid;

describe('PostgreSQL pipelined lanes', () => {
  it('runs a statement outside a transaction on a lane, and a transaction on the pool', async () => {
    const db = store(2);
    const pid = await pidOf(db);
    expect(await db.lanes.backendPids()).toContain(pid);
    const txPid = await db.transaction((tx) => pidOf(tx));
    expect(await db.lanes.backendPids()).not.toContain(txPid);
  });

  it('answers many statements at once, each with its own rows, on no more lanes than configured', async () => {
    const db = store(2);
    const n = 200;
    const rows = await Promise.all(
      Array.from({ length: n }, (_, i) => db.query<{ n: number; pid: number }>('select $1::int as n, pg_backend_pid() as pid', [i])),
    );
    expect(rows.map((r) => r[0].n)).toEqual(Array.from({ length: n }, (_, i) => i));
    const lanes = await db.lanes.backendPids();
    expect(lanes.length).toBeLessThanOrEqual(2);
    // At most a few went to the pool (while the lanes were connecting); most shared the lanes.
    const onLanes = rows.filter((r) => lanes.includes(r[0].pid)).length;
    expect(onLanes).toBeGreaterThan(n / 2);
  });

  it('sends the statements a lane is given in one turn of the event loop in one write', async () => {
    const db = store(1);
    await pidOf(db); // the lane is open
    const proto = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
    const original = { _write: proto._write, _writev: proto._writev };
    let writes = 0;
    for (const k of ['_write', '_writev'] as const) {
      proto[k] = function (this: net.Socket, ...a: unknown[]) {
        writes++;
        return original[k].apply(this, a);
      };
    }
    try {
      const rows = await Promise.all(Array.from({ length: 20 }, (_, i) => db.query<{ n: number }>('select $1::int as n', [i])));
      expect(rows.map((r) => r[0].n)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    } finally {
      Object.assign(proto, original);
    }
    expect(writes).toBe(1);
    // A statement on its own still leaves at once, in the same turn's flush.
    expect(await db.query<{ n: number }>('select $1::int as n', [7])).toEqual([{ n: 7 }]);
  });

  it('fails only the statement in error: the others pipelined around it answer', async () => {
    const db = store(1);
    await pidOf(db); // the lane is open
    const results = await Promise.allSettled([
      db.query<{ n: number }>('select $1::int as n', [1]),
      db.query('select 1 / $1::int as n', [0]),
      db.query('select $1::uuid as id', ['not-a-uuid']),
      db.query<{ n: number }>('select $1::int as n', [4]),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: [{ n: 1 }] });
    expect(results[1].status).toBe('rejected');
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(pg.DatabaseError);
    expect(((results[1] as PromiseRejectedResult).reason as pg.DatabaseError).code).toBe('22012');
    expect(((results[2] as PromiseRejectedResult).reason as pg.DatabaseError).code).toBe('22P02');
    expect(results[3]).toEqual({ status: 'fulfilled', value: [{ n: 4 }] });
    expect(db.lanes.openLanes).toBe(1);
  });

  it('a unique violation keeps its code and constraint, as the services map them', async () => {
    const db = store(1);
    await db.exec('create table if not exists lane_unique (id int primary key)');
    await db.query('insert into lane_unique (id) values ($1)', [1]);
    const err = (await db.query('insert into lane_unique (id) values ($1)', [1]).catch((e: unknown) => e)) as pg.DatabaseError;
    expect(err).toBeInstanceOf(pg.DatabaseError);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('lane_unique_pkey');
  });

  it('sends nothing more to a lane stuck behind a slow statement: the pool answers meanwhile', async () => {
    const db = store(1);
    const lanePid = await pidOf(db);
    const slow = db.query('select pg_sleep(2)');
    await new Promise((r) => setTimeout(r, 150)); // older than the lanes' 50 ms
    const pid = await pidOf(db);
    expect(pid).not.toBe(lanePid);
    await slow;
    expect(await pidOf(db)).toBe(lanePid); // free again: back on the lane
  });

  it('replaces a lane whose connection was ended from the server', async () => {
    const db = store(1);
    const lanePid = await pidOf(db);
    const admin = new pg.Client({ connectionString: t!.url! });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [lanePid]);
    } finally {
      await admin.end();
    }
    // The lane notices its connection is gone; the statements after it run on a new one.
    let pid = lanePid;
    for (let i = 0; i < 50 && (pid === lanePid || !(await db.lanes.backendPids()).includes(pid)); i++) {
      pid = await pidOf(db).catch(() => lanePid);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(pid).not.toBe(lanePid);
    expect(await db.lanes.backendPids()).toEqual([pid]);
  });

  it('with no lanes configured, and in a bounded pool, every statement goes to the pool', async () => {
    const off = store(0);
    await pidOf(off);
    expect(off.lanes.openLanes).toBe(0);
    const bounded = store(2).boundedPool({ max: 1, timeoutMs: 5_000 });
    opened.push(bounded);
    await pidOf(bounded);
    expect(bounded.lanes.openLanes).toBe(0);
  });

  it('close() ends the lanes', async () => {
    const db = new PostgresDb(t!.url!, 2, undefined, 2);
    await Promise.all(Array.from({ length: 20 }, () => pidOf(db)));
    const pids = await db.lanes.backendPids();
    expect(pids.length).toBeGreaterThan(0);
    await db.close();
    const admin = new pg.Client({ connectionString: t!.url! });
    await admin.connect();
    try {
      // A backend leaves pg_stat_activity a moment after its client has gone.
      let left: unknown[] = [];
      for (let i = 0; i < 100; i++) {
        left = (await admin.query('select pid from pg_stat_activity where pid = any($1::int[])', [pids])).rows;
        if (left.length === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(left).toEqual([]);
    } finally {
      await admin.end();
    }
  });
});
