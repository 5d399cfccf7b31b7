// Planner statistics. PostgreSQL's autovacuum keeps them fresh by itself; PGlite runs no background
// workers, so without this its tables are never analyzed and list plans go wrong as they grow
// (the contacts list at 100,000 rows: 94–138 ms without statistics, about 2 ms with them).
// So, on a store without autoanalyze: analyze when the server starts, after a seed (a bulk load),
// and then every half hour. ANALYZE samples a bounded number of rows per table, so each pass costs
// about the same however large the tables get.
import type { Db } from './db.js';

export const ANALYZE_EVERY_MS = 30 * 60_000;

/** Analyzes every table when the store keeps no statistics itself; a no-op on PostgreSQL. */
export async function refreshStatistics(db: Db): Promise<boolean> {
  if (db.capabilities.autoAnalyze) return false;
  await db.exec('analyze');
  return true;
}

export class StatisticsKeeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    private readonly everyMs = ANALYZE_EVERY_MS,
  ) {}

  async start(): Promise<void> {
    if (this.db.capabilities.autoAnalyze || this.timer) return;
    await refreshStatistics(this.db);
    this.timer = setInterval(() => void refreshStatistics(this.db).catch(this.onError), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
