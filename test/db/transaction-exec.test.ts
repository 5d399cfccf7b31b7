// tx.exec: a script of several statements runs inside the transaction (the migrator applies each
// migration with one call), so it commits and rolls back with the rest of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKS } from '../../src/db/db.js';
import { freshDb, type TestDb } from '../helpers/db.js';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t?.close());

const count = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from server_secrets where purpose = 'exec-test'`))[0].n;

describe('tx.exec', () => {
  it('runs several statements, dollar-quoted bodies included, and commits with the transaction', async () => {
    await t.db.withLock(LOCKS.migrate, (tx) =>
      tx.exec(`-- a comment; with a semicolon
        insert into server_secrets (purpose, version, secret) values ('exec-test', 1, '\\x01');
        do $$ begin insert into server_secrets (purpose, version, secret) values ('exec-test', 2, '\\x02'); end $$;`),
    );
    expect(await count()).toBe(2);
  });

  it('is rolled back with the transaction when a later statement fails', async () => {
    await expect(
      t.db.withLock(LOCKS.migrate, async (tx) => {
        await tx.exec(`insert into server_secrets (purpose, version, secret) values ('exec-test', 3, '\\x03')`);
        await tx.query('select 1 / 0');
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await count()).toBe(2);
  });
});
