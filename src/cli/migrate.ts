// `switchboard migrate`: applies pending migrations. Sent to a running embedded server it answers
// from there: the server migrated at start (or, with auto-migrate off, applies them now, under the
// same lock, which is what a rolling deploy does on PostgreSQL).
import type { Db } from '../db/db.js';
import { appliedVersion, loadMigrations, migrate } from '../db/migrate.js';
import { parseCommandArgs } from './args.js';
import { diskContext, execute, type OperatorCommand } from './command.js';
import { done, type CommandContext, type CommandResult } from './result.js';

export const MIGRATE_USAGE = `Usage:
  switchboard migrate

  Applies pending database migrations and prints what it applied.`;

export const MIGRATE: OperatorCommand<null> = {
  usage: MIGRATE_USAGE,
  parse(args) {
    parseCommandArgs(args, {});
    return null;
  },
  async run(db, _args, ctx) {
    const applied = await migrate(db);
    const version = await appliedVersion(db);
    const names = new Map(loadMigrations().map((m) => [m.version, `${String(m.version).padStart(4, '0')}_${m.name}`]));
    const list = applied.map((v) => names.get(v) ?? String(v)).join(', ');
    if (ctx.via === 'server') {
      return done(
        applied.length
          ? `the running server applied ${list}; schema version ${version}`
          : `already migrated by the running server (schema version ${version})`,
      );
    }
    return done(applied.length ? `applied ${list}; schema version ${version}` : `nothing to apply; schema version ${version}`);
  },
};

export function migrateCommand(db: Db, args: readonly string[] = [], ctx: CommandContext = diskContext()): Promise<CommandResult> {
  return execute(MIGRATE, db, args, ctx);
}
