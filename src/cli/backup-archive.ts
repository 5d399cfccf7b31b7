// The backup file: a gzip'd tar holding `manifest.json` and `pgdata/` (the embedded store's files
// as of a checkpoint). The manifest says what made it and lists every file with its size and
// sha256, so a restore can tell a whole, unchanged archive from a damaged or altered one before
// anything of it is used (restore-archive.ts). Packed by the CLI from the staging copy the store
// made (src/db/pglite-snapshot.ts): the server never writes a client's path.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { listTree } from '../lib/file-tree.js';

export const MANIFEST_NAME = 'manifest.json';
/** The archive's folder of store files (the data dir's own name for them). */
export const PGDATA = 'pgdata';
/** What `format` says; a restore refuses anything else. */
export const FORMAT = 'switchboard-embedded-backup';
/** Raised when the layout changes; a restore refuses a version it does not know. */
export const FORMAT_VERSION = 1;

export interface ManifestFile {
  /** In the archive: `pgdata/…`. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  switchboard_version: string;
  /** The newest migration applied to the store (its schema_migrations). */
  schema_version: number;
  created_at: string;
  files: ManifestFile[];
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** The manifest of a staging dir's `pgdata/`: every file with its size and sha256. */
export async function manifestFor(stagingDir: string, about: Omit<Manifest, 'format' | 'format_version' | 'files'>): Promise<Manifest> {
  const files: ManifestFile[] = [];
  for (const e of await listTree(path.join(stagingDir, PGDATA))) {
    if (e.kind !== 'file') continue;
    files.push({ path: `${PGDATA}/${e.path}`, size: e.size, sha256: await sha256File(path.join(stagingDir, PGDATA, e.path)) });
  }
  return { format: FORMAT, format_version: FORMAT_VERSION, ...about, files };
}

/** A backup file that exists already (or its `.partial`): never written over. */
export class BackupExistsError extends Error {}

/**
 * Packs the staging dir's `pgdata/` and the manifest into `file`: written to `file.partial`,
 * flushed, then linked into place, which fails rather than replace a file that appeared meanwhile
 * (a plain rename would). A `.partial` that exists is refused: it may be another backup's, still
 * being written; one left by a backup that died is named in the message.
 */
export async function packBackup(stagingDir: string, manifest: Manifest, file: string): Promise<{ bytes: number }> {
  await fs.writeFile(path.join(stagingDir, MANIFEST_NAME), JSON.stringify(manifest, null, 1) + '\n', { mode: 0o600 });
  const partial = `${file}.partial`;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(partial, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    throw new BackupExistsError(`${partial} exists: another backup to ${file} is running, or one died; remove ${partial} if none runs`);
  }
  try {
    // tar is loaded by a backup only: every operator command's start imports this module.
    const { create: createTar } = await import('tar');
    // The stream closes the handle when done; the file is then opened again to flush it to disk.
    await pipeline(createTar({ gzip: true, cwd: stagingDir, portable: true }, [MANIFEST_NAME, PGDATA]), handle.createWriteStream());
    const written = await fs.open(partial, 'r');
    try {
      await written.sync();
    } finally {
      await written.close();
    }
    try {
      await fs.link(partial, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupExistsError(`${file} exists; a backup never writes over a file`);
      throw err;
    }
    return { bytes: (await fs.stat(file)).size };
  } finally {
    await handle.close().catch(() => {}); // closed by its stream unless that failed first
    await fs.rm(partial, { force: true });
  }
}
