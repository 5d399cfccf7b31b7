// `switchboard export --to postgres://…`: the move from the embedded store to PostgreSQL. Runs in
// the CLI's own process, never through the admin socket: it needs the embedded store to itself
// (a server writing beside the copy would lose what it wrote after it), so a running server is a
// refusal, not something to ask. The copy itself is src/db/store-copy.ts.
import type { Config } from '../config.js';
import { describeStore, embeddedStoreExists, storeCapabilities } from '../db/store-config.js';
import { EXPORT_USAGE } from './help.js';
import { done, failed, table, usageFailed, type CommandResult } from './result.js';

export interface ExportArgs {
  to: string;
}

/** The target's URL from `--to URL` or `--to=URL`; a UsageError's message otherwise. */
export function parseExportArgs(args: readonly string[]): ExportArgs | string {
  let to: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    let value: string | undefined;
    if (a === '--to') value = args[++i];
    else if (a.startsWith('--to=')) value = a.slice('--to='.length);
    else return `unexpected argument ${JSON.stringify(a)}`;
    if (value === undefined || value === '') return '--to needs a postgres:// URL';
    if (to !== null) return '--to given twice';
    to = value;
  }
  if (to === null) return '--to postgres://… is required: the empty PostgreSQL database to copy into';
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    return `--to ${JSON.stringify(redact(to))} is not a URL; give postgres://USER@HOST:PORT/DATABASE`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `--to must be a postgres:// URL, not ${url.protocol}//…`;
  if (url.pathname.length <= 1) return '--to must name the database (postgres://USER@HOST:PORT/DATABASE)';
  return { to };
}

/** A URL as it may be printed: never its password. */
function redact(to: string): string {
  try {
    const u = new URL(to);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return to.replace(/:[^:@/]*@/, ':***@');
  }
}

/** Runs the export; progress lines go to `progress` as tables are copied (a person watching a large move). */
export async function runExport(config: Config, args: readonly string[], progress: (line: string) => void): Promise<CommandResult> {
  const parsed = parseExportArgs(args);
  if (typeof parsed === 'string') return usageFailed(parsed, EXPORT_USAGE);
  if (!storeCapabilities(config).ownsDataDir) {
    return failed(`export copies the embedded store, but DATABASE_URL is set (${describeStore(config)}); unset it and give the target with --to`);
  }
  if (!embeddedStoreExists(config.dataDir)) {
    return failed(`there is no store in ${config.dataDir} (SWITCHBOARD_DATA_DIR), so nothing was copied; point SWITCHBOARD_DATA_DIR at the data directory your server uses`);
  }
  const target = describeStore({ databaseUrl: parsed.to, dataDir: config.dataDir });

  const { openPglite, DataDirLockedError } = await import('../db/pglite.js');
  const { appliedVersion, latestVersion, migrate } = await import('../db/migrate.js');
  const { copyStore, StoreCopyError } = await import('../db/store-copy.js');
  const { PostgresDb } = await import('../db/postgres.js');

  let source;
  try {
    source = await openPglite({ dataDir: config.dataDir });
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    return failed(`${err.message}\nStop the server first: export copies the store as it stands, and what a server wrote after the copy would be left behind.`);
  }
  const into = new PostgresDb(parsed.to, 2, undefined, 0);
  try {
    if ((await appliedVersion(source)) < latestVersion()) {
      if (!config.autoMigrate) return failed('the embedded store\'s schema is older than this release; run `switchboard migrate` first');
      await migrate(source);
    }
    try {
      await into.query('select 1');
    } catch (err) {
      return failed(`could not connect to ${target}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const started = Date.now();
    progress(`copying ${describeStore(config)} into ${target}, in one transaction`);
    let report;
    try {
      report = await copyStore(source, into, { table: (name, rows) => progress(`  ${name}: ${rows} row${rows === 1 ? '' : 's'}`) });
    } catch (err) {
      if (err instanceof StoreCopyError) return failed(err.message);
      throw err;
    }
    // Planner statistics for the new tables (autovacuum would get there; the first requests should not wait for it).
    await into.exec('analyze');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const total = report.tables.reduce((n, t) => n + t.rows, 0);
    return done(
      table(['table', 'rows'], report.tables.map((t) => [t.table, String(t.rows)])) +
        `\nCopied ${total} rows in ${report.tables.length} tables and ${report.sequences} sequence(s) in ${seconds} s; schema version ${report.schemaVersion}; every table's count checked.\n` +
        `Next: stop using ${config.dataDir} and start with\n  DATABASE_URL='${redact(parsed.to)}' switchboard serve\n` +
        'Keep the data directory until the new store has served for a while: it is unchanged.',
    );
  } finally {
    await into.close();
    await source.close();
  }
}
