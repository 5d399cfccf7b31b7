// The PGlite adapter runs every statement as a named prepared statement (src/db/pglite-statements.ts).
// What must not change by it: the values that come back (every type the schema uses), errors and
// their codes, transaction isolation, statements re-prepared after DDL, and a bounded number of
// statements kept in the session. Runs on an in-memory PGlite in both halves of CI: it tests the
// embedded adapter itself, whichever store the rest of the suite is on.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteDb } from '../../src/db/pglite.js';
import { MAX_PREPARED } from '../../src/db/pglite-statements.js';

let db: PgliteDb;
beforeAll(async () => {
  const pg = new PGlite('memory://');
  await pg.waitReady;
  db = new PgliteDb(pg, () => {});
  await db.exec(`
    create table things (
      id uuid primary key, name text not null unique, n int8, ok boolean, at timestamptz, day date,
      doc jsonb, tags text[], blob bytea, price numeric(12,2)
    )`);
});
afterAll(() => db?.close());

const ROW = {
  id: '0190a000-0000-7000-8000-000000000001',
  name: 'first',
  n: 9_007_199_254_740_991,
  ok: true,
  at: new Date('2026-11-26T06:09:08.123Z'),
  day: '2026-11-26',
  doc: { a: [1, 'two', null], b: { c: true } },
  tags: ['x', 'y z', 'q"uote', 'comma,'],
  blob: Buffer.from([0, 1, 2, 255]),
  price: '12.50',
};
const INSERT = `insert into things (id, name, n, ok, at, day, doc, tags, blob, price)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning *`;
const params = (r: typeof ROW) => [r.id, r.name, r.n, r.ok, r.at, r.day, r.doc, r.tags, r.blob, r.price];

describe('PGlite prepared statements', () => {
  it('round-trips every type exactly as PGlite’s own query() does', async () => {
    const [mine] = await db.query<Record<string, unknown>>(INSERT, params(ROW));
    const theirs = (await db.pg.query<Record<string, unknown>>('select * from things where id = $1', [ROW.id])).rows[0];
    expect(mine).toEqual(theirs);
    expect(mine.n).toBe(ROW.n);
    expect((mine.at as Date).toISOString()).toBe('2026-11-26T06:09:08.123Z');
    expect(mine.doc).toEqual(ROW.doc);
    expect(mine.tags).toEqual(ROW.tags);
    expect(Buffer.from(mine.blob as Uint8Array).equals(ROW.blob)).toBe(true);
    // The same text again runs the prepared statement, with nulls as parameters.
    const [again] = await db.query<Record<string, unknown>>(
      'select id, n, doc from things where id = $1 and ($2::int8 is null or n = $2)',
      [ROW.id, null],
    );
    expect(again).toEqual({ id: ROW.id, n: ROW.n, doc: ROW.doc });
  });

  it('raises the database error with its code, caches nothing broken, and carries on', async () => {
    await expect(db.query(INSERT, params({ ...ROW, id: '0190a000-0000-7000-8000-000000000002' }))).rejects.toMatchObject({
      code: '23505',
    });
    await expect(db.query('select nonsense from nowhere where x = $1', [1])).rejects.toMatchObject({ code: '42P01' });
    const rows = await db.query<{ n: number }>('select count(*)::int as n from things', []);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('keeps transactions whole: a failed statement rolls everything back, and others never see the middle', async () => {
    const second = { ...ROW, id: '0190a000-0000-7000-8000-000000000003', name: 'second' };
    let seenInside = -1;
    await expect(
      db.transaction(async (tx) => {
        await tx.query(INSERT, params(second));
        // A query outside the transaction waits for it (PGlite's transaction lock): it must not
        // run inside it and see the uncommitted row.
        const outside = db.query<{ n: number }>('select count(*)::int as n from things', []);
        seenInside = (await tx.query<{ n: number }>('select count(*)::int as n from things', []))[0].n;
        await tx.query(INSERT, params(second)); // duplicate: fails, the transaction rolls back
        return outside;
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(seenInside).toBe(2);
    expect(await db.query('select name from things order by name', [])).toEqual([{ name: 'first' }]);
  });

  it('re-prepares a statement whose result columns changed under it (DDL)', async () => {
    const sql = 'select * from things where id = $1';
    expect(Object.keys((await db.query<object>(sql, [ROW.id]))[0])).not.toContain('extra');
    await db.exec(`alter table things add column extra text default 'added'`);
    const [row] = await db.query<{ extra: string }>(sql, [ROW.id]);
    expect(row.extra).toBe('added');
  });

  it('keeps at most MAX_PREPARED statements in the session, and an evicted one still runs', async () => {
    const first = 'select $1::int + 0 as v';
    expect(await db.query(first, [1])).toEqual([{ v: 1 }]);
    for (let i = 1; i <= MAX_PREPARED + 20; i++) {
      expect(await db.query(`select $1::int + ${i} as v`, [1])).toEqual([{ v: 1 + i }]);
    }
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements', []);
    expect(n).toBeLessThanOrEqual(MAX_PREPARED);
    expect(n).toBeGreaterThan(MAX_PREPARED / 2);
    expect(await db.query(first, [2])).toEqual([{ v: 2 }]);
  });

  it('reads rows from the wire as PGlite’s reader does: multi-byte text, empty strings, nulls, thousands of rows', async () => {
    const sql = `select i, case when i % 3 = 0 then null when i % 3 = 1 then '' else repeat('é✓😀', i % 50) end as t
      from generate_series(1, 5000) as i order by i`;
    const mine = await db.query<{ i: number; t: string | null }>(sql, []);
    const theirs = (await db.pg.query<{ i: number; t: string | null }>(sql)).rows;
    expect(mine).toHaveLength(5000);
    expect(mine).toEqual(theirs);
    expect(mine[1]).toEqual({ i: 2, t: 'é✓😀'.repeat(2) });
    expect(mine[0].t).toBe('');
    expect(mine[2].t).toBeNull();
  });

  it('throws the error PGlite’s own path throws, every field of it', async () => {
    const fail = (run: () => Promise<unknown>) => run().then(() => null, (err: Record<string, unknown>) => err);
    const dup = params({ ...ROW, id: '0190a000-0000-7000-8000-000000000003' });
    const mine = await fail(() => db.query(INSERT, dup));
    const theirs = await fail(() => db.pg.query(INSERT, dup));
    const fields = ['message', 'severity', 'code', 'detail', 'schema', 'table', 'constraint', 'routine'];
    const pick = (e: Record<string, unknown> | null) => Object.fromEntries(fields.map((f) => [f, e?.[f]]));
    expect(pick(mine)).toEqual(pick(theirs));
    expect(mine).toBeInstanceOf(Error);
    expect(mine).toMatchObject({ code: '23505', constraint: 'things_name_key', detail: 'Key (name)=(first) already exists.' });
  });

  it('delivers a NOTIFY sent by a statement to this process’s listeners, once, and none after unsubscribing', async () => {
    const got: string[] = [];
    const unlisten = await db.listen('sb_test_channel', (payload) => got.push(payload));
    await db.query(`select pg_notify('sb_test_channel', $1)`, ['outside a transaction']);
    await db.transaction(async (tx) => {
      await tx.query(`select pg_notify('sb_test_channel', $1)`, ['inside one']);
    });
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['outside a transaction', 'inside one']);
    await unlisten();
    await db.query(`select pg_notify('sb_test_channel', $1)`, ['after']);
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['outside a transaction', 'inside one']);
  });
});
