// What `switchboard backup` and `restore` refuse, as an operator meets it (real CLI processes):
// a backup never writes over a file, is no way to back up PostgreSQL (pg_dump is), and needs a
// store; a restore never writes over a directory that holds anything. Each refusal exits 1, says
// why and what to do instead, and changes nothing. The store is a PGlite data dir of this file's
// own; the PostgreSQL refusal needs no database (it is decided from DATABASE_URL alone), and is
// given the leg's own when there is one. So both legs of CI run this file alike.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { onPostgres } from '../helpers/db.js';
import { cliResult } from '../helpers/process.js';
import { storeAndFolder } from '../helpers/store-and-folder.js';

const file = storeAndFolder('sb-backup-refusals-');
const data = () => path.join(file.tmp, 'data');
const env = (dataDir = data()): Record<string, string> => ({ SWITCHBOARD_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

describe('backup and restore refusals', () => {
  it('backup: FILE exists (it is left as it was)', async () => {
    const made = await cliResult(['migrate'], env());
    expect(made.code, made.stderr).toBe(0);
    const existing = path.join(file.tmp, 'existing.tgz');
    fs.writeFileSync(existing, 'keep me');
    const r = await cliResult(['backup', existing], env());
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`error: ${existing} exists; a backup never writes over a file: name a new one, or move that one away first\n`);
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
  });

  it('backup: a PostgreSQL store points to pg_dump', async () => {
    const url = onPostgres() ? file.t.url! : 'postgres://postgres@127.0.0.1:1/not_contacted';
    const out = path.join(file.tmp, 'pg.tgz');
    const r = await cliResult(['backup', out], { ...env(), DATABASE_URL: url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: backup copies the embedded store, and this store is PostgreSQL \(DATABASE_URL is set\): back it up with pg_dump/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('backup: no store where SWITCHBOARD_DATA_DIR points (nothing is made there)', async () => {
    const none = path.join(file.tmp, 'no-store');
    const r = await cliResult(['backup', path.join(file.tmp, 'none.tgz')], env(none));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: there is no store in .*no-store \(SWITCHBOARD_DATA_DIR\), so there is nothing to back up\./);
    expect(fs.existsSync(none)).toBe(false);
  });

  it('backup without FILE is bad usage (2)', async () => {
    const r = await cliResult(['backup'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: missing argument \(expected 1\)\n\nUsage:\n {2}switchboard backup FILE\n/);
  });

  it('restore: into a directory that holds anything (it is left as it was)', async () => {
    const backup = path.join(file.tmp, 'ok.tgz');
    const made = await cliResult(['backup', backup], env());
    expect(made.code, made.stderr).toBe(0);
    const busy = path.join(file.tmp, 'busy');
    fs.mkdirSync(busy);
    fs.writeFileSync(path.join(busy, 'something'), 'x');
    const r = await cliResult(['restore', backup, '--data-dir', busy], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${busy} exists and is not empty: a restore makes a new store and never writes over one (a server may be using it). ` +
        'Restore into a new directory (--data-dir DIR), or stop the server and move that directory aside first.\n',
    );
    expect(fs.readdirSync(busy)).toEqual(['something']);
    // DIR defaults to SWITCHBOARD_DATA_DIR: the store the backup came from is not empty either.
    const dflt = await cliResult(['restore', backup], env());
    expect(dflt.code).toBe(1);
    expect(dflt.stderr).toMatch(/exists and is not empty/);
  });
});
