// `switchboard restore` treats the backup file as hostile. Each archive here is refused with a
// message saying why, and leaves nothing behind: no target directory (no half-store a server could
// open), no work directory beside it, nothing written outside it. Archives made by hand (raw tar
// headers) try what a packer would not write: `../`, absolute paths, links, devices, entries the
// manifest does not know, more bytes than allowed; a genuine backup is damaged (a file changed
// and packed again, cut short, a flipped byte) for the rest. The restore runs in this process:
// nothing here needs a server, and the store made for the genuine backup is a PGlite data dir of
// this file's own (the embedded store's feature: run on the PGlite leg only).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Header, create as createTar, extract as extractTar } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backup } from '../../src/cli/backup.js';
import { FORMAT, FORMAT_VERSION } from '../../src/cli/backup-archive.js';
import { runOperatorCommand } from '../../src/cli/operator.js';
import { restore } from '../../src/cli/restore.js';
import { configWith } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { openPglite } from '../../src/db/pglite.js';

let tmp: string;
let genuine: string;
const config = () => configWith({ dataDir: path.join(tmp, 'store'), databaseUrl: null });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-restore-hostile-'));
  const db = await openPglite({ dataDir: config().dataDir });
  await migrate(db);
  genuine = path.join(tmp, 'genuine.tgz');
  // The CLI's half packs what the store's half (run here on the open store) copied.
  const made = await backup(config(), [genuine], { ask: (argv) => runOperatorCommand(db, argv), version: '0.0.0-test', cwd: tmp });
  await db.close();
  expect(made.code, made.stderr).toBe(0);
}, 180_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface RawEntry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice';
  body?: string;
  linkpath?: string;
}

/** A gzip'd tar written header by header, exactly as given (no packer's clean-up). */
function rawTarGz(entries: RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? 'File';
    const body = Buffer.from(type === 'File' ? (e.body ?? '') : '');
    const block = Buffer.alloc(512);
    new Header({ path: e.path, type, size: body.length, mode: 0o600, uid: 0, gid: 0, mtime: new Date(0), linkpath: e.linkpath }).encode(block, 0);
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** A manifest entry that lists `files` (path → body) truthfully. */
function manifest(files: Record<string, string>): RawEntry {
  const list = Object.entries(files).map(([p, body]) => ({ path: p, size: Buffer.byteLength(body), sha256: sha(body) }));
  const body = JSON.stringify({ format: FORMAT, format_version: FORMAT_VERSION, switchboard_version: 't', schema_version: 1, created_at: 'now', files: list });
  return { path: 'manifest.json', body };
}

const STORE = { 'pgdata/PG_VERSION': '18\n' };
const storeEntries: RawEntry[] = [{ path: 'pgdata/', type: 'Directory' }, { path: 'pgdata/PG_VERSION', body: '18\n' }];

let n = 0;
/** Restores `archive` into a new target; the answer, and asserts that it left nothing behind. */
async function restoreRefused(archive: Buffer | string, extraArgs: string[] = []): Promise<string> {
  const file = typeof archive === 'string' ? archive : path.join(tmp, `case-${++n}.tgz`);
  if (typeof archive !== 'string') fs.writeFileSync(file, archive);
  const parent = path.join(tmp, `target-${++n}`);
  fs.mkdirSync(parent);
  const target = path.join(parent, 'data');
  const res = await restore(config(), [file, '--data-dir', target, ...extraArgs], tmp);
  expect(res.code, res.stdout).toBe(1);
  expect(res.stdout).toBe('');
  expect(res.stderr).toMatch(/nothing was restored\n$/);
  expect(fs.readdirSync(parent)).toEqual([]); // no target, no work dir beside it
  return res.stderr;
}

describe('restore refuses a hostile or damaged backup file, and leaves nothing', () => {
  it('an entry that climbs out with ../ (and writes nothing outside)', async () => {
    const err = await restoreRefused(rawTarGz([manifest(STORE), ...storeEntries, { path: 'pgdata/../../escaped', body: 'x' }]));
    expect(err).toMatch(/holds a path with an empty, "\." or "\.\." part: "pgdata\/\.\.\/\.\.\/escaped"/);
    expect(fs.existsSync(path.join(tmp, 'escaped'))).toBe(false);
  });

  it('an absolute path', async () => {
    const err = await restoreRefused(rawTarGz([manifest(STORE), ...storeEntries, { path: `${tmp}/absolute`, body: 'x' }]));
    expect(err).toMatch(/holds an absolute path/);
    expect(fs.existsSync(path.join(tmp, 'absolute'))).toBe(false);
  });

  it('a symbolic link, a hard link, a device', async () => {
    for (const e of [
      { path: 'pgdata/base', type: 'SymbolicLink', linkpath: '/etc' },
      { path: 'pgdata/PG_VERSION2', type: 'Link', linkpath: 'pgdata/PG_VERSION' },
      { path: 'pgdata/dev', type: 'CharacterDevice' },
    ] as RawEntry[]) {
      const err = await restoreRefused(rawTarGz([manifest(STORE), ...storeEntries, e]));
      expect(err).toMatch(new RegExp(`holds a ${e.type} entry \\(a backup holds files and directories only\\)`));
    }
  });

  it('a file outside pgdata/, a file the manifest does not list, no manifest', async () => {
    expect(await restoreRefused(rawTarGz([manifest(STORE), ...storeEntries, { path: 'elsewhere', body: 'x' }]))).toMatch(/holds a path outside pgdata\//);
    expect(await restoreRefused(rawTarGz([manifest(STORE), ...storeEntries, { path: 'pgdata/extra', body: 'x' }]))).toMatch(/holds pgdata\/extra, which its manifest does not list/);
    expect(await restoreRefused(rawTarGz(storeEntries))).toMatch(/holds no manifest\.json, so it is not a Switchboard backup/);
  });

  it('more bytes than the cap (a small one, given for the test)', async () => {
    const big = 'x'.repeat(4096);
    const err = await restoreRefused(rawTarGz([manifest({ ...STORE, 'pgdata/big': big }), ...storeEntries, { path: 'pgdata/big', body: big }]), ['--max-bytes', '2048']);
    expect(err).toMatch(/unpacks to more than 2048 bytes \(restore --max-bytes raises the cap\)/);
  });

  it('not a gzip file', async () => {
    expect(await restoreRefused(Buffer.from('hello, this is not a backup\n'))).toMatch(/is not a gzip file, so not a Switchboard backup/);
  });

  it('a genuine backup with one file changed and packed again', async () => {
    const dir = path.join(tmp, 'altered');
    fs.mkdirSync(dir);
    await extractTar({ file: genuine, cwd: dir });
    const victim = path.join(dir, 'pgdata', 'PG_VERSION');
    fs.writeFileSync(victim, '17\n'); // same size, other bytes
    const altered = path.join(tmp, 'altered.tgz');
    await createTar({ gzip: true, file: altered, cwd: dir, portable: true }, ['manifest.json', 'pgdata']);
    expect(await restoreRefused(altered)).toMatch(/pgdata\/PG_VERSION is not what its manifest says \(size or sha256\): the file was changed or damaged after the backup was made/);
  });

  it('a genuine backup cut short, or with a byte flipped', async () => {
    const whole = fs.readFileSync(genuine);
    expect(await restoreRefused(whole.subarray(0, Math.floor(whole.length / 2)))).toMatch(/is truncated or corrupt, so it cannot be restored/);
    const flipped = Buffer.from(whole);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    expect(await restoreRefused(flipped)).toMatch(/truncated or corrupt|is not what its manifest says/);
  });

  it('and restores the genuine one', async () => {
    const target = path.join(tmp, 'good', 'data');
    const res = await restore(config(), [genuine, '--data-dir', target], tmp);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^restored the backup made .* by Switchboard 0\.0\.0-test into .*: schema version \d+, \d+ files\./);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['data']);
  });
});
