// src/db/pglite.ts calls three of PGlite's underscore methods (_checkReady, _runExclusiveQuery,
// _runExclusiveTransaction): its own query() pays six protocol round trips per statement, and
// the prepared-statement path there is only correct if it takes PGlite's locks exactly as
// query() does. package.json pins PGlite's exact version for that reason; these tests fail when
// an upgrade removes the methods or changes how they serialise work, before anything subtler does.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from '../../src/db/pglite.js';

let db: PgliteDb;
beforeAll(async () => {
  db = await openPglite({ dataDir: null });
  await db.exec('create temporary table t (x int)'); // no schema yet: a new store
});
afterAll(() => db?.close());

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Whether p settles within a few turns of the event loop. */
async function settlesSoon(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, 50));
  return settled;
}

describe('PGlite internals the adapter relies on', () => {
  it('package.json pins the exact PGlite version that is installed', () => {
    const root = path.join(import.meta.dirname, '../..');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const wanted = pkg.dependencies['@electric-sql/pglite'];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'));
    expect(installed.version).toBe(wanted);
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'npm-shrinkwrap.json'), 'utf8'));
    expect(lock.packages[''].dependencies['@electric-sql/pglite']).toBe(wanted);
    expect(lock.packages['node_modules/@electric-sql/pglite'].version).toBe(wanted);
  });

  it('the three methods exist', () => {
    for (const m of ['_checkReady', '_runExclusiveQuery', '_runExclusiveTransaction'] as const) {
      expect(typeof db.pg[m]).toBe('function');
    }
  });

  it('a statement outside a transaction waits for a transaction in progress, then sees its commit', async () => {
    const inside = deferred();
    const gate = deferred();
    const tx = db.transaction(async (q) => {
      await q.query('insert into t values (1)');
      inside.resolve();
      await gate.promise;
      await q.query('insert into t values (2)');
    });
    await inside.promise;
    const read = db.query<{ n: number }>('select count(*)::int as n from t');
    expect(await settlesSoon(read)).toBe(false);
    gate.resolve();
    await tx;
    expect(await read).toEqual([{ n: 2 }]);
    await db.query('delete from t');
  });

  it("PGlite's own query() waits for our statements' transaction lock, and ours for its transactions", async () => {
    const gate = deferred();
    const inside = deferred();
    const theirs = db.pg.transaction(async (tx) => {
      await tx.query('insert into t values (3)');
      inside.resolve();
      await gate.promise;
    });
    await inside.promise;
    const ours = db.query('select 1');
    expect(await settlesSoon(ours)).toBe(false);
    gate.resolve();
    await theirs;
    await ours;

    const held = deferred();
    const holding = db.pg._runExclusiveTransaction(() => held.promise);
    const theirQuery = db.pg.query('select 1');
    expect(await settlesSoon(theirQuery)).toBe(false);
    held.resolve();
    await holding;
    await theirQuery;
    await db.query('delete from t');
  });

  it('a statement inside a transaction takes the query lock (another protocol exchange cannot interleave)', async () => {
    const held = deferred();
    const holding = db.pg._runExclusiveQuery(() => held.promise);
    let statement: Promise<unknown> | null = null;
    const tx = db.transaction(async (q) => {
      statement = q.query('select 1');
      await statement;
    });
    // BEGIN itself goes through the query lock, so the transaction cannot even start yet.
    expect(await settlesSoon(tx)).toBe(false);
    held.resolve();
    await holding;
    await tx;
    expect(statement).not.toBeNull();
  });

  it('_checkReady rejects once the database is closed (last: it closes the database)', async () => {
    await expect(db.pg._checkReady()).resolves.toBeUndefined();
    await db.close();
    await expect(db.pg._checkReady()).rejects.toThrow();
    await expect(db.query('select 1')).rejects.toThrow();
  });
});
