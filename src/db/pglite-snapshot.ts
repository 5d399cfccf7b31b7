// The embedded store's backups, the store's side (docs/backup.md). A backup is "a copy under a
// checkpoint": PgliteDb.snapshot() holds both of PGlite's locks (so no statement runs and no
// transaction is open), runs CHECKPOINT (every change is in the data files, none only in the WAL)
// and copies pgdata into a staging directory inside the data dir, then lets the server go on. The
// CLI packs the staging copy into the backup file and removes it; the server never writes a
// client's path. PGlite's own dumpDataDir() was measured against this and not taken: it builds
// the whole archive in memory while holding the query lock (docs/backup.md has the figures).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { LockOwner } from './data-dir-lock.js';
import { ownedDirName, removeDeadOwners } from './owned-dirs.js';

/** Staging copies in the data dir are named so (then their owner: owned-dirs.ts). */
export const STAGING_PREFIX = 'backup-staging-';

/** The copy's folder inside a staging dir (the data dir's own name for it). */
export const STAGED_PGDATA = 'pgdata';

/**
 * The running instance's own lock and options: a copy that held them would not start, since the
 * lock names a live server (pg_basebackup leaves them out too).
 */
export const NOT_COPIED: readonly string[] = ['postmaster.pid', 'postmaster.opts'];

export interface Snapshot {
  /** The staging dir: it holds `pgdata/`, the store's files as of the checkpoint. */
  dir: string;
  /** How long statements waited on the copy: from both locks taken to their release. */
  blockedMs: number;
  files: number;
  bytes: number;
}

/** A new staging dir's path for `owner`, the process that will pack and remove it. */
export function newStagingDir(dataDir: string, owner: LockOwner): string {
  return path.join(dataDir, ownedDirName(STAGING_PREFIX, owner, randomBytes(6).toString('hex')));
}

/** Removes staging dirs whose backup died before removing its own (run at start and at each backup). */
export function removeLeftoverStaging(dataDir: string): string[] {
  return removeDeadOwners(dataDir, STAGING_PREFIX);
}

/** Whether `dir` is a staging dir directly inside `dataDir` (the CLI checks what it is told to pack and remove). */
export function isStagingDir(dataDir: string, dir: string): boolean {
  return path.dirname(path.resolve(dir)) === path.resolve(dataDir) && path.basename(dir).startsWith(STAGING_PREFIX);
}

/** Runs `copy` into a new staging dir; the dir is removed again when the copy fails. */
export async function intoStaging(dir: string, copy: (pgdataCopy: string) => Promise<Omit<Snapshot, 'dir'>>): Promise<Snapshot> {
  await fs.mkdir(dir, { mode: 0o700 });
  try {
    return { dir, ...(await copy(path.join(dir, STAGED_PGDATA))) };
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

