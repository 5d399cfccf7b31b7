// Reading a backup file for a restore, as hostile input: it may be damaged, cut short, altered or
// made to attack the machine that restores it. Only regular files and directories under pgdata/
// (and the manifest) are accepted, by paths that stay inside the target (no absolute path, no
// `..`, no empty or `.` parts); no links or devices; at most so many entries and bytes (a small
// archive must not unpack into a full disk); every file must be in the manifest with its size and
// sha256, and nothing else may be there. Files are written by this module itself (never by tar's
// extractor) into a directory the caller made empty, so nothing outside it is ever touched.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { ReadEntry } from 'tar';
import { FORMAT, FORMAT_VERSION, MANIFEST_NAME, PGDATA, type Manifest, type ManifestFile } from './backup-archive.js';

export interface ArchiveLimits {
  /** Bytes of all files together, as unpacked. */
  maxBytes: number;
  /** Entries (files and directories). */
  maxEntries: number;
}

/** A store's files number in the thousands; its size is the operator's to raise (restore --max-bytes). */
export const DEFAULT_LIMITS: ArchiveLimits = { maxBytes: 64 * 1024 ** 3, maxEntries: 200_000 };

/** Our manifests list a few thousand files: a few hundred KiB. */
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/** The archive is not a usable backup; the message says why. */
export class BadArchiveError extends Error {}

/** What is wrong with an entry's path, or null: it must stay inside the target, under pgdata/. */
function pathProblem(p: string, isDir: boolean): string | null {
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'an absolute path';
  if (/[\\\0]/.test(p)) return 'a path with a backslash or NUL';
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return 'a path with an empty, "." or ".." part';
  if (p === MANIFEST_NAME && !isDir) return null;
  if (parts[0] !== PGDATA || (parts.length === 1 && !isDir)) return `a path outside ${PGDATA}/`;
  return null;
}

/** Unpacks `file` into `into` (an empty directory), checked as the module comment says; the manifest. */
export async function extractBackup(file: string, into: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<Manifest> {
  const head = Buffer.alloc(2);
  const fh = await fs.open(file, 'r');
  try {
    await fh.read(head, 0, 2, 0);
  } finally {
    await fh.close();
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) throw new BadArchiveError(`${file} is not a gzip file, so not a Switchboard backup`);

  // Loaded by a restore only: the CLI's help imports this module's command.
  const { Parser } = await import('tar');
  const written = new Map<string, { size: number; sha256: string }>();
  const writes: Promise<void>[] = [];
  const outs: Array<{ destroy(): void }> = [];
  const manifestChunks: Buffer[] = [];
  let manifestSeen = false;
  let entries = 0;
  let bytes = 0;
  // Set by refuse(), from the parser's callbacks: the first reason the archive was refused.
  const refused: { error: BadArchiveError | null } = { error: null };
  const parser = new Parser({ strict: true, noResume: true, maxDecompressionRatio: Infinity, onReadEntry: (e) => take(e) });
  const refuse = (why: string): void => {
    refused.error ??= new BadArchiveError(why);
    parser.abort(refused.error);
  };

  function take(entry: ReadEntry): void {
    const isDir = entry.type === 'Directory';
    const p = isDir ? entry.path.replace(/\/$/, '') : entry.path;
    const problem = entry.type !== 'File' && !isDir ? `a ${entry.type} entry (a backup holds files and directories only)` : pathProblem(p, isDir);
    if (problem) return void (refuse(`${file} holds ${problem}: ${JSON.stringify(entry.path)}; it was not made by switchboard backup`), entry.resume());
    if (++entries > limits.maxEntries) return void (refuse(`${file} holds more than ${limits.maxEntries} entries`), entry.resume());
    bytes += entry.size;
    if (bytes > limits.maxBytes) return void (refuse(`${file} unpacks to more than ${limits.maxBytes} bytes (restore --max-bytes raises the cap)`), entry.resume());
    if (isDir) {
      mkdirSync(path.join(into, p), { recursive: true, mode: 0o700 });
      return void entry.resume();
    }
    if (p === MANIFEST_NAME) {
      if (manifestSeen || entry.size > MAX_MANIFEST_BYTES) return void (refuse(`${file} holds more than one manifest, or one too large`), entry.resume());
      manifestSeen = true;
      entry.on('data', (c: Buffer) => manifestChunks.push(c));
      return;
    }
    if (written.has(p)) return void (refuse(`${file} holds ${p} twice`), entry.resume());
    written.set(p, { size: -1, sha256: '' });
    mkdirSync(path.dirname(path.join(into, p)), { recursive: true, mode: 0o700 });
    const hash = createHash('sha256');
    let size = 0;
    const out = createWriteStream(path.join(into, p), { flags: 'wx', mode: 0o600 });
    // One consumer for both: the entry may hold data already, which its first consumer alone gets.
    entry.on('data', (c: Buffer) => {
      hash.update(c);
      size += c.length;
      if (!out.write(c)) {
        entry.pause();
        out.once('drain', () => entry.resume());
      }
    });
    entry.on('end', () => out.end());
    outs.push(out);
    const done = finished(out).then(() => void written.set(p, { size, sha256: hash.digest('hex') }));
    // Seen once all are awaited; never an unhandled rejection meanwhile.
    done.catch(() => {});
    writes.push(done);
  }

  const input = createReadStream(file);
  try {
    await new Promise<void>((resolve, reject) => {
      input.on('error', reject);
      parser.on('error', reject);
      parser.on('end', resolve);
      input.pipe(parser);
    });
    await Promise.all(writes);
  } catch (err) {
    // A refused archive is not read on to its end; an entry cut off never ends its file.
    input.destroy();
    for (const out of outs) out.destroy();
    await Promise.allSettled(writes);
    if (refused.error) throw refused.error;
    const why = err instanceof Error ? err.message : String(err);
    throw new BadArchiveError(`${file} is truncated or corrupt, so it cannot be restored (${why})`);
  }
  if (!manifestSeen) throw new BadArchiveError(`${file} holds no ${MANIFEST_NAME}, so it is not a Switchboard backup`);
  return checkManifest(file, Buffer.concat(manifestChunks).toString('utf8'), written);
}

const isManifestFile = (f: unknown): f is ManifestFile => {
  const m = f as Record<string, unknown> | null;
  return !!m && typeof m.path === 'string' && Number.isSafeInteger(m.size) && typeof m.sha256 === 'string';
};

/** The manifest, once it is known to describe exactly the files unpacked. */
function checkManifest(file: string, text: string, written: ReadonlyMap<string, { size: number; sha256: string }>): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new BadArchiveError(`${file}: its ${MANIFEST_NAME} is not JSON`);
  }
  if (m?.format !== FORMAT || m.format_version !== FORMAT_VERSION) {
    throw new BadArchiveError(`${file}: its ${MANIFEST_NAME} is not a Switchboard backup manifest of format version ${FORMAT_VERSION}`);
  }
  if (!Number.isSafeInteger(m.schema_version) || typeof m.created_at !== 'string' || typeof m.switchboard_version !== 'string' || !Array.isArray(m.files) || !m.files.every(isManifestFile)) {
    throw new BadArchiveError(`${file}: its ${MANIFEST_NAME} lacks a field or has one of the wrong kind`);
  }
  const listed = new Set<string>();
  for (const f of m.files) {
    const got = written.get(f.path);
    if (!got) throw new BadArchiveError(`${file} lacks ${f.path}, which its manifest lists: the archive is incomplete`);
    if (got.size !== f.size || got.sha256 !== f.sha256) {
      throw new BadArchiveError(`${file}: ${f.path} is not what its manifest says (size or sha256): the file was changed or damaged after the backup was made`);
    }
    listed.add(f.path);
  }
  for (const p of written.keys()) if (!listed.has(p)) throw new BadArchiveError(`${file} holds ${p}, which its manifest does not list`);
  if (!listed.has(`${PGDATA}/PG_VERSION`)) throw new BadArchiveError(`${file} holds no store (no ${PGDATA}/PG_VERSION)`);
  return m;
}
