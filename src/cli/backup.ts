// `switchboard backup FILE`: a consistent copy of the embedded store, taken while the server
// serves (docs/backup.md). Two halves:
//   - the store's (BACKUP, an operator command): run by the process that has the store open, the
//     running server over the admin socket or, with none, the CLI itself; it copies the store's
//     files under a checkpoint into a staging dir inside the data dir (PgliteDb.snapshot) and
//     answers with where;
//   - the CLI's (backup()): refuses what cannot be backed up this way, asks for the copy, packs
//     it into FILE with a manifest (backup-archive.ts) and removes the staging dir, whatever
//     happens. The server never writes FILE: a server never writes a client's path.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { selfOwner, type LockOwner } from '../db/data-dir-lock.js';
import { appliedVersion } from '../db/migrate.js';
import { isStagingDir } from '../db/pglite-snapshot.js';
import { embeddedStoreExists, storeCapabilities } from '../db/store-config.js';
import { parseCommandArgs } from './args.js';
import { manifestFor, packBackup } from './backup-archive.js';
import type { OperatorCommand } from './command.js';
import { CommandError, UsageError, done, failed, json, usageFailed, type CommandResult } from './result.js';

export const BACKUP_USAGE = `Usage:
  switchboard backup FILE

  Writes a consistent copy of the embedded store (SWITCHBOARD_DATA_DIR) to FILE, a gzip'd tar
  with a manifest (every file's size and sha256). Runs while \`serve\` does: the server holds
  statements for as long as the store's files take to copy (see docs/backup.md), then the copy is
  packed here. Without a server the store is opened here. FILE must not exist. \`switchboard
  restore FILE\` makes a store from it. On PostgreSQL (DATABASE_URL) use pg_dump instead.`;

export const PG_DUMP_INSTEAD =
  'backup copies the embedded store, and this store is PostgreSQL (DATABASE_URL is set): back it up with ' +
  "pg_dump (every table is in the 'switchboard' schema), e.g. pg_dump --format=custom --file=FILE \"$DATABASE_URL\"";

/** The hidden option the CLI names itself with: the staging dir is its to pack and remove. */
const OWNER_OPTION = 'owner';

interface BackupArgs {
  file: string;
  owner: LockOwner | null;
}

/** What the store's half answers with (JSON on stdout). */
interface Staged {
  staging: string;
  schema_version: number;
  blocked_ms: number;
  files: number;
  bytes: number;
}

function parseBackupArgs(args: readonly string[]): BackupArgs {
  const p = parseCommandArgs(args, { strings: [OWNER_OPTION], positionals: { min: 1, max: 1 } });
  const raw = p.strings.get(OWNER_OPTION);
  const m = raw === undefined ? null : /^(\d+):(\d+|x)$/.exec(raw);
  if (raw !== undefined && !m) throw new UsageError(`--${OWNER_OPTION} must be PID:START`);
  return { file: p.positionals[0]!, owner: m ? { pid: Number(m[1]), start: m[2] === 'x' ? null : m[2]! } : null };
}

/** The store's half: a staging copy for the CLI named by --owner. */
export const BACKUP: OperatorCommand<BackupArgs> = {
  usage: BACKUP_USAGE,
  parse: parseBackupArgs,
  async run(db, args) {
    if (!db.snapshot) throw new CommandError(PG_DUMP_INSTEAD);
    if (!args.owner) throw new CommandError('the store\'s half of a backup is asked for by `switchboard backup FILE`, which packs its copy');
    const schemaVersion = await appliedVersion(db);
    const snap = await db.snapshot(args.owner);
    const staged: Staged = { staging: snap.dir, schema_version: schemaVersion, blocked_ms: snap.blockedMs, files: snap.files, bytes: snap.bytes };
    return done(json(staged));
  },
};

const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

export interface BackupDeps {
  /** Runs an operator command where the store is (main.ts: the running server, else here). */
  ask(argv: string[]): Promise<CommandResult>;
  /** This release's version, for the manifest. */
  version: string;
  cwd: string;
}

/** The CLI's half: `switchboard backup FILE`. */
export async function backup(config: Config, args: readonly string[], deps: BackupDeps): Promise<CommandResult> {
  let file: string;
  try {
    file = path.resolve(deps.cwd, parseBackupArgs(args).file);
  } catch (err) {
    if (err instanceof UsageError) return usageFailed(err.message, BACKUP_USAGE);
    throw err;
  }
  if (!storeCapabilities(config).ownsDataDir) return failed(PG_DUMP_INSTEAD);
  if (fs.existsSync(file)) return failed(`${file} exists; a backup never writes over a file: name a new one, or move that one away first`);
  if (!fs.statSync(path.dirname(file), { throwIfNoEntry: false })?.isDirectory()) return failed(`cannot write ${file}: ${path.dirname(file)} is not a directory`);
  if (!embeddedStoreExists(config.dataDir)) {
    return failed(
      `there is no store in ${config.dataDir} (SWITCHBOARD_DATA_DIR), so there is nothing to back up. Point SWITCHBOARD_DATA_DIR at the ` +
        'data directory your server uses (its log names it: "store: pglite, data dir …").',
    );
  }
  const owner = selfOwner();
  const answer = await deps.ask(['backup', file, `--${OWNER_OPTION}`, `${owner.pid}:${owner.start ?? 'x'}`]);
  if (answer.code !== 0) return answer;
  const staged = JSON.parse(answer.stdout) as Staged;
  // Only a staging dir in this data dir is ever packed and removed, whatever answered.
  if (!isStagingDir(config.dataDir, staged.staging)) return failed(`the store answered with an unexpected staging dir ${staged.staging}`);
  try {
    const createdAt = new Date().toISOString();
    const manifest = await manifestFor(staged.staging, { switchboard_version: deps.version, schema_version: staged.schema_version, created_at: createdAt });
    const { bytes } = await packBackup(staged.staging, manifest, file);
    return done(
      `backed up the store in ${config.dataDir} to ${file}: ${manifest.files.length} files, ${mib(staged.bytes)} (${mib(bytes)} packed), ` +
        `schema version ${staged.schema_version}; statements waited ${staged.blocked_ms} ms for the copy.\n` +
        `Restore it with: switchboard restore ${file} --data-dir NEW_DIR`,
    );
  } catch (err) {
    return failed(`backup to ${file} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    fs.rmSync(staged.staging, { recursive: true, force: true });
  }
}
