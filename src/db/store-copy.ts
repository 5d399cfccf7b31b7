// Copies one store into another that is empty: the move from the embedded store to PostgreSQL
// (`switchboard export`). Everything happens in ONE transaction on the target: the schema made by
// the migrations, every row, the sequences. A copy that fails or is killed leaves the target as
// it was (empty); a copy that commits is whole, checked table by table before the commit.
//
// Rows travel as text: each column in PostgreSQL's own text form (`::text`), cast back on the
// target by the column's declared type. That is exact for every type both stores share (a jsonb
// `null` stays a jsonb null, not an SQL NULL; bytea, arrays and timestamps keep every digit), and
// needs no type handling of our own. Server secrets, key hashes, sessions and erased addresses are
// rows like any other, so cursors, keys and sessions made before the move keep working after it.
import { LOCKS, SCHEMA, type Db, type Queryable, type Transaction } from './db.js';
import { appliedVersion, applyMigrations } from './migrate.js';

/** Why a copy was refused or undone; the message says what to do. */
export class StoreCopyError extends Error {}

export interface TableCount {
  table: string;
  rows: number;
}

export interface CopyReport {
  schemaVersion: number;
  tables: TableCount[];
  sequences: number;
}

export interface CopyProgress {
  /** A table is about to be copied; `rows` is how many the source holds. */
  table(name: string, rows: number): void;
}

/** Rows fetched from the source at a time, and the most sent to the target in one statement. */
const FETCH_ROWS = 1_000;
const BATCH_BYTES = 4 * 1024 * 1024;

/** The migrator's own bookkeeping: the target's is written by the migrations it ran. */
const BOOKKEEPING = 'schema_migrations';

interface Column {
  name: string;
  type: string;
}

interface Table {
  name: string;
  columns: Column[];
  /** Foreign keys checked row by row (made deferred for the copy, then put back). */
  foreignKeys: string[];
  /** Triggers of ours (derived values such as a workflow's last run are copied, not recomputed). */
  triggers: string[];
}

const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const qualified = (name: string): string => `${SCHEMA}.${ident(name)}`;

/** Copies `source` (which must not change meanwhile: the caller holds it alone) into the empty `target`. */
export async function copyStore(source: Db, target: Db, progress: CopyProgress): Promise<CopyReport> {
  const sourceVersion = await appliedVersion(source);
  return target.withLock(LOCKS.migrate, async (tx) => {
    await refuseUnlessEmpty(tx);
    await applyMigrations(tx);
    const schemaVersion = await appliedVersion(tx);
    if (schemaVersion !== sourceVersion) {
      throw new StoreCopyError(`the source store is at schema version ${sourceVersion} and this release makes ${schemaVersion}; run \`switchboard migrate\` on the source first`);
    }
    const tables = await describeTables(tx);
    await setChecks(tx, tables, 'off');
    const report = await source.transaction(async (src) => {
      const counts: TableCount[] = [];
      for (const table of tables) counts.push(await copyTable(src, tx, table, progress));
      return { schemaVersion, tables: counts, sequences: await copySequences(src, tx) };
    });
    // Every deferred foreign key is checked here, before the commit: a row the copy left dangling
    // undoes the whole copy.
    await tx.query('set constraints all immediate');
    await setChecks(tx, tables, 'on');
    return report;
  });
}

async function refuseUnlessEmpty(tx: Queryable): Promise<void> {
  const version = await appliedVersion(tx);
  const [row] = await tx.query<{ n: string }>(
    `select count(*)::text as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1`,
    [SCHEMA],
  );
  if (version > 0 || Number(row?.n ?? 0) > 0) {
    throw new StoreCopyError(
      version > 0
        ? `the target database already holds a Switchboard store (schema version ${version}); export copies into an empty database only, so nothing was changed`
        : `the target database already has a "${SCHEMA}" schema with objects in it; export copies into an empty database only, so nothing was changed`,
    );
  }
}

/** The target's tables (just made by the migrations), their insertable columns, foreign keys and triggers. */
async function describeTables(tx: Queryable): Promise<Table[]> {
  const cols = await tx.query<{ tbl: string; col: string; type: string }>(
    `select c.relname as tbl, a.attname as col, format_type(a.atttypid, a.atttypmod) as type
       from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind = 'r' and c.relname <> $2
        and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by c.relname, a.attnum`,
    [SCHEMA, BOOKKEEPING],
  );
  const fks = await tx.query<{ tbl: string; name: string }>(
    `select c.relname as tbl, k.conname as name from pg_constraint k join pg_class c on c.oid = k.conrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and k.contype = 'f' and not k.condeferrable order by 1, 2`,
    [SCHEMA],
  );
  const triggers = await tx.query<{ tbl: string; name: string }>(
    `select c.relname as tbl, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and not t.tgisinternal and t.tgenabled = 'O' order by 1, 2`,
    [SCHEMA],
  );
  const byName = new Map<string, Table>();
  for (const c of cols) {
    const t = byName.get(c.tbl) ?? { name: c.tbl, columns: [], foreignKeys: [], triggers: [] };
    t.columns.push({ name: c.col, type: c.type });
    byName.set(c.tbl, t);
  }
  for (const f of fks) byName.get(f.tbl)?.foreignKeys.push(f.name);
  for (const g of triggers) byName.get(g.tbl)?.triggers.push(g.name);
  return [...byName.values()];
}

/**
 * Off: foreign keys deferred to the end (so tables and rows that refer to each other, a run and
 * the run it retries, may arrive in any order) and our triggers disabled (what they derive is in
 * the rows already). On: both as the migrations made them. Allowed because this transaction made
 * the tables, so it owns them; the schema the commit leaves is the migrations' exactly.
 */
async function setChecks(tx: Transaction, tables: readonly Table[], state: 'off' | 'on'): Promise<void> {
  const statements: string[] = [];
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      statements.push(`alter table ${qualified(t.name)} alter constraint ${ident(fk)} ${state === 'off' ? 'deferrable initially deferred' : 'not deferrable'}`);
    }
    for (const trigger of t.triggers) statements.push(`alter table ${qualified(t.name)} ${state === 'off' ? 'disable' : 'enable'} trigger ${ident(trigger)}`);
  }
  if (statements.length) await tx.exec(statements.join(';\n'));
}

async function countRows(q: Queryable, table: string): Promise<number> {
  const [row] = await q.query<{ n: string }>(`select count(*)::text as n from ${qualified(table)}`);
  return Number(row?.n ?? 0);
}

async function copyTable(src: Queryable, tx: Transaction, table: Table, progress: CopyProgress): Promise<TableCount> {
  const expected = await countRows(src, table.name);
  progress.table(table.name, expected);
  const names = table.columns.map((c) => ident(c.name));
  // A column the source lacks fails here, by name, before a row is sent.
  await src.query(`declare switchboard_export no scroll cursor for select array_to_json(array[${names.map((n) => `${n}::text`).join(', ')}])::text as r from ${qualified(table.name)}`);
  const insert =
    `insert into ${qualified(table.name)} (${names.join(', ')}) ` +
    `select ${table.columns.map((c, i) => `(e->>${i})::${c.type}`).join(', ')} from json_array_elements($1::json) e`;
  let batch: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!batch.length) return;
    await tx.query(insert, [`[${batch.join(',')}]`]);
    batch = [];
    bytes = 0;
  };
  for (;;) {
    const rows = await src.query<{ r: string }>(`fetch ${FETCH_ROWS} from switchboard_export`);
    for (const { r } of rows) {
      batch.push(r);
      bytes += r.length;
      if (bytes >= BATCH_BYTES) await flush();
    }
    if (rows.length < FETCH_ROWS) break;
  }
  await flush();
  await src.query('close switchboard_export');
  const copied = await countRows(tx, table.name);
  if (copied !== expected) {
    throw new StoreCopyError(`table ${table.name}: the source holds ${expected} rows but ${copied} arrived; nothing was changed in the target`);
  }
  return { table: table.name, rows: copied };
}

/** Every sequence of the schema, set to where the source's stands (a value handed out is never handed out again). */
async function copySequences(src: Queryable, tx: Queryable): Promise<number> {
  const seqs = await src.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'S' order by 1`,
    [SCHEMA],
  );
  for (const { name } of seqs) {
    const [state] = await src.query<{ last_value: string; is_called: boolean }>(`select last_value::text as last_value, is_called from ${qualified(name)}`);
    if (!state) continue;
    await tx.query('select setval($1::regclass, $2::bigint, $3)', [qualified(name), state.last_value, state.is_called]);
  }
  return seqs.length;
}
