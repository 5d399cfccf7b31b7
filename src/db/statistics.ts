// Planner statistics. PostgreSQL's autovacuum keeps them fresh by itself; PGlite runs no background
// workers, so without this its tables are never analyzed and list plans go wrong as they grow
// (the contacts list at 100,000 rows: 94–138 ms without statistics, about 2 ms with them).
// So, on a store without autoanalyze: analyze when the server starts, after a seed (a bulk load),
// and then every half hour. ANALYZE samples a bounded number of rows per table, so each pass costs
// about the same however large the tables get.
import { SCHEMA, type Db } from './db.js';

export const ANALYZE_EVERY_MS = 30 * 60_000;

/** Our tables that have no statistics yet (reltuples < 0: never analyzed nor vacuumed). */
async function unanalyzedTables(db: Db): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select format('%I.%I', ns.nspname, c.relname) as name from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = $1 and c.relkind in ('r', 'p') and c.reltuples < 0 order by c.relname`,
    [SCHEMA],
  );
  return rows.map((r) => r.name);
}

/** Analyzes every table when the store keeps no statistics itself; a no-op on PostgreSQL. */
export async function refreshStatistics(db: Db): Promise<boolean> {
  if (db.capabilities.autoAnalyze) return false;
  await db.exec('analyze');
  return true;
}

/** A store analyzed before gets its first refresh this long after start. */
export const FIRST_REFRESH_MS = 60_000;

export class StatisticsKeeper {
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    private readonly everyMs = ANALYZE_EVERY_MS,
  ) {}

  /**
   * At start, only the tables never analyzed (a new store, or tables a migration just created) are
   * analyzed, at once: they are new, so small or empty, and quick. Statistics are kept in the data
   * dir, so the rest are refreshed a minute after start, off the start-up path: a full ANALYZE of
   * a large store holds PGlite (and so the event loop) for about a second.
   */
  async start(): Promise<void> {
    if (this.db.capabilities.autoAnalyze || this.timer) return;
    const fresh = await unanalyzedTables(this.db);
    if (fresh.length) await this.db.exec(`analyze ${fresh.join(', ')}`);
    this.soon = setTimeout(() => void refreshStatistics(this.db).catch(this.onError), FIRST_REFRESH_MS);
    this.soon.unref();
    this.timer = setInterval(() => void refreshStatistics(this.db).catch(this.onError), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.timer = null;
    this.soon = null;
  }
}
