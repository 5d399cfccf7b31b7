// Multi-row inserts for bulk loads (the fixture loader, benchmarks): one statement per chunk, so a
// fixture with thousands of contacts does not pay one round trip per row. Every parameter carries
// an explicit type, so both stores read JSON text as jsonb and JS arrays as SQL arrays the same way.
import type { Queryable } from './db.js';

/** A table's columns with their SQL types, in the order of each row's values. */
export type Columns = ReadonlyArray<readonly [column: string, type: string]>;

/** The wire protocol allows 65,535 parameters per statement; stay well below it. */
const MAX_PARAMS = 30_000;

export async function insertRows(tx: Queryable, table: string, cols: Columns, rows: unknown[][]): Promise<void> {
  const perChunk = Math.max(1, Math.floor(MAX_PARAMS / cols.length));
  const names = cols.map(([c]) => c).join(', ');
  for (let start = 0; start < rows.length; start += perChunk) {
    const params: unknown[] = [];
    const tuples = rows.slice(start, start + perChunk).map((row) => {
      if (row.length !== cols.length) throw new Error(`internal: a row of ${row.length} values for ${cols.length} columns of ${table}`);
      const slots = cols.map(([, type], i) => {
        params.push(row[i]);
        return `$${params.length}::${type}`;
      });
      return `(${slots.join(', ')})`;
    });
    await tx.query(`insert into ${table} (${names}) values ${tuples.join(', ')}`, params);
  }
}
