// The tables live in the schema `switchboard` (migration 0021). A new store never touches
// `public`; a store from before 0021 (everything in public, the bookkeeping table too) upgrades
// with its data intact and ends up exactly like a new one.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA, LOCKS, type Db, type Queryable } from '../../src/db/db.js';
import { appliedVersion, latestVersion, loadMigrations, migrate } from '../../src/db/migrate.js';
import { emptyDb, freshDb, type TestDb } from '../helpers/db.js';

const MOVE = 21;

/** What the previous migrator made of migrations 1..upTo: everything in public. */
async function migrateTheOldWay(db: Db, upTo: number): Promise<void> {
  await db.withLock(LOCKS.migrate, async (tx) => {
    await tx.exec(`set local search_path = public;
      create table schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())`);
    for (const m of loadMigrations().filter((m) => m.version <= upTo)) {
      await tx.exec(m.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [m.version, m.name]);
    }
  });
}

/** The schema's shape, to compare an upgraded store with a new one. */
async function shape(q: Queryable): Promise<Record<string, string[]>> {
  const list = async (sql: string) => (await q.query<{ x: string }>(sql, [SCHEMA])).map((r) => r.x).sort();
  return {
    relations: await list(`select relname || ' ' || relkind::text || relpersistence::text as x from pg_class where relnamespace = $1::regnamespace`),
    columns: await list(
      `select c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || coalesce(' = ' || pg_get_expr(d.adbin, d.adrelid), '') as x
         from pg_attribute a join pg_class c on c.oid = a.attrelid
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where c.relnamespace = $1::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
    ),
    indexes: await list(`select indexdef as x from pg_indexes where schemaname = $1`),
    constraints: await list(
      `select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) as x from pg_constraint where connamespace = $1::regnamespace`,
    ),
    functions: await list(`select p.oid::regprocedure || ' ' || md5(prosrc) as x from pg_proc p where pronamespace = $1::regnamespace`),
    triggers: await list(
      `select tgrelid::regclass || ' ' || tgname || ' ' || tgfoid::regprocedure as x
         from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = $1::regnamespace and not tgisinternal`,
    ),
  };
}

async function inPublic(q: Queryable): Promise<{ relations: number; functions: number }> {
  const [r] = await q.query<{ relations: number; functions: number }>(
    `select (select count(*)::int from pg_class where relnamespace = 'public'::regnamespace) as relations,
            (select count(*)::int from pg_proc where pronamespace = 'public'::regnamespace) as functions`,
  );
  return r;
}

let fresh: TestDb;
let old: TestDb;
beforeAll(async () => {
  [fresh, old] = await Promise.all([freshDb(), emptyDb()]);
});
afterAll(async () => {
  await Promise.all([fresh?.close(), old?.close()]);
});

describe('the switchboard schema', () => {
  it('a new store keeps everything in switchboard and nothing in public', async () => {
    expect(await inPublic(fresh.db)).toEqual({ relations: 0, functions: 0 });
    const [{ n }] = await fresh.db.query<{ n: number }>(
      `select count(*)::int as n from pg_class where relnamespace = $1::regnamespace and relname = 'schema_migrations'`,
      [SCHEMA],
    );
    expect(n).toBe(1);
    expect(await appliedVersion(fresh.db)).toBe(latestVersion());
    expect(await migrate(fresh.db)).toEqual([]);
  });

  it('0021 moves every table and function migrations 0001-0020 create', async () => {
    const script = fs.readFileSync(path.join(import.meta.dirname, '../../src/db/migrations/0021_switchboard_schema.sql'), 'utf8');
    const moved = [...script.matchAll(/alter (table|function) public\.(\w+)/g)].map((m) => m[2]).sort();
    // What migrations after the move create is never in public: a store at 0020 cannot have it.
    const later = new Set(
      loadMigrations()
        .filter((m) => m.version > MOVE)
        .flatMap((m) => [...m.sql.matchAll(/create (?:table|function|view|sequence) (\w+)/gi)].map((x) => x[1])),
    );
    const made = (
      await fresh.db.query<{ x: string }>(
        `select relname as x from pg_class where relnamespace = $1::regnamespace and relkind in ('r', 'p', 'v', 'm', 'S', 'f')
         union all select proname from pg_proc where pronamespace = $1::regnamespace`,
        [SCHEMA],
      )
    )
      .map((r) => r.x)
      .filter((x) => !later.has(x))
      .sort();
    expect(moved).toEqual(made);
  });

  it('a store from before the move upgrades with its data intact and ends up like a new one', async () => {
    await migrateTheOldWay(old.db, MOVE - 1);
    await old.db.transaction(async (tx) => {
      await tx.query('set local search_path = public');
      await tx.query(`insert into accounts (id, name) values ('0190a000-0000-7000-8000-0000000000a1', 'Before the move')`);
      await tx.query(`insert into server_secrets (purpose, version, secret) values ('test', 1, '\\x01')`);
      await tx.query(`insert into rate_counters (key, window_start, count) values ('k', 1, 3)`);
    });
    expect(await appliedVersion(old.db)).toBe(MOVE - 1);

    expect(await migrate(old.db)).toEqual(loadMigrations().filter((m) => m.version >= MOVE).map((m) => m.version));
    expect(await appliedVersion(old.db)).toBe(latestVersion());
    expect(await inPublic(old.db)).toEqual({ relations: 0, functions: 0 });
    // Unqualified, as the code names them: the session's search_path finds them.
    expect(await old.db.query(`select name from accounts`)).toEqual([{ name: 'Before the move' }]);
    expect(await old.db.query(`select count(*)::int as n from server_secrets`)).toEqual([{ n: 1 }]);
    expect(await old.db.query(`select count::int as n from rate_counters`)).toEqual([{ n: 3 }]);
    const versions = await old.db.query<{ version: number }>('select version from schema_migrations order by version');
    expect(versions.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version));
    expect(await shape(old.db)).toEqual(await shape(fresh.db));
    expect(await migrate(old.db)).toEqual([]);
  });
});
