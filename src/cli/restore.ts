// `switchboard restore FILE [--data-dir DIR]`: makes an embedded store from a backup (backup.ts).
// Never through the admin socket and never on a store that exists: it makes a new one. The
// archive is unpacked and checked into a directory beside the target (restore-archive.ts), the
// store there is opened once to know it starts, and only then is the directory renamed into
// place: a restore that fails, or is killed, leaves no half-store where a server would open it.
// A directory left by a killed restore is removed by the next one (owned-dirs.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { selfOwner } from '../db/data-dir-lock.js';
import { latestVersion } from '../db/migrate.js';
import { embeddedSchemaVersion } from '../db/open.js';
import { ownedDirName, removeDeadOwners } from '../db/owned-dirs.js';
import { intArg, parseCommandArgs } from './args.js';
import { BadArchiveError, DEFAULT_LIMITS, extractBackup } from './restore-archive.js';
import { UsageError, done, failed, usageFailed, type CommandResult } from './result.js';

export const RESTORE_USAGE = `Usage:
  switchboard restore FILE [--data-dir DIR] [--max-bytes N]

  Makes a new embedded store in DIR (default: SWITCHBOARD_DATA_DIR) from a file made by
  \`switchboard backup\`. DIR must not exist or be empty: a restore never writes over a store.
  The file is checked whole (its manifest: every file's size and sha256; only plain files under
  pgdata/) before anything is put in place, and the store is opened once to know it starts.
    --max-bytes N  refuse a file that unpacks to more than N bytes (default 64 GiB)`;

interface RestoreArgs {
  file: string;
  dataDir: string | null;
  maxBytes: number;
}

function parseRestoreArgs(args: readonly string[]): RestoreArgs {
  const p = parseCommandArgs(args, { strings: ['data-dir', 'max-bytes'], positionals: { min: 1, max: 1 } });
  const max = p.strings.get('max-bytes');
  return {
    file: p.positionals[0]!,
    dataDir: p.strings.get('data-dir') ?? null,
    maxBytes: max === undefined ? DEFAULT_LIMITS.maxBytes : intArg('max-bytes', max, 1, Number.MAX_SAFE_INTEGER),
  };
}

/** Why `dir` cannot be restored into, or null: it must not exist, or be an empty directory. */
function targetProblem(dir: string): string | null {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st) return null;
  if (!st.isDirectory()) return `${dir} exists and is not a directory`;
  if (fs.readdirSync(dir).length === 0) return null;
  return (
    `${dir} exists and is not empty: a restore makes a new store and never writes over one (a server may be using it). ` +
    'Restore into a new directory (--data-dir DIR), or stop the server and move that directory aside first.'
  );
}

/** A path as a shell takes it, for the line to copy. */
const shellWord = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

export async function restore(config: Config, args: readonly string[], cwd: string): Promise<CommandResult> {
  let parsed: RestoreArgs;
  try {
    parsed = parseRestoreArgs(args);
  } catch (err) {
    if (err instanceof UsageError) return usageFailed(err.message, RESTORE_USAGE);
    throw err;
  }
  const file = path.resolve(cwd, parsed.file);
  const target = path.resolve(cwd, parsed.dataDir ?? config.dataDir);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) return failed(`cannot read ${file}: no such file`);
  const problem = targetProblem(target);
  if (problem) return failed(problem);

  const parent = path.dirname(target);
  const prefix = `.${path.basename(target)}.restoring-`;
  fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
  removeDeadOwners(parent, prefix);
  const work = path.join(parent, ownedDirName(prefix, selfOwner(), randomBytes(6).toString('hex')));
  fs.mkdirSync(work, { mode: 0o700 });
  try {
    const manifest = await extractBackup(file, work, { ...DEFAULT_LIMITS, maxBytes: parsed.maxBytes });
    let schema: number;
    try {
      schema = await embeddedSchemaVersion(work);
    } catch (err) {
      return failed(`the store in ${file} does not start, so nothing was restored: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (schema !== manifest.schema_version) {
      return failed(`the store in ${file} is at schema version ${schema}, its manifest says ${manifest.schema_version}: nothing was restored`);
    }
    try {
      fs.renameSync(work, target); // onto an empty directory too
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return failed(`${target} was filled while the backup was checked; nothing was restored`);
      throw err;
    }
    const newer = schema > latestVersion() ? `\nNote: schema version ${schema} is newer than this release's (${latestVersion()}): serve it with the release that made it, or a later one.` : '';
    const pg = config.databaseUrl ? '\nNote: DATABASE_URL is set in this shell; the embedded store is used only without it.' : '';
    return done(
      `restored the backup made ${manifest.created_at} by Switchboard ${manifest.switchboard_version} into ${target}: ` +
        `schema version ${schema}, ${manifest.files.length} files.\n` +
        `Start it with: SWITCHBOARD_DATA_DIR=${shellWord(target)} switchboard serve${newer}${pg}`,
    );
  } catch (err) {
    if (err instanceof BadArchiveError) return failed(`${err.message}; nothing was restored`);
    return failed(`restore from ${file} failed, nothing was restored: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
