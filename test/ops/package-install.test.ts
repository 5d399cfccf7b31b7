// The package as an operator installs it: `npm pack` makes a tarball of the built program only
// (no tests, benches, CI or sources), pinned by its npm-shrinkwrap.json; installed as `npm i -g`
// lays it out, `switchboard --version` answers and `serve` in an empty folder serves the API and
// the hub. The install is made offline from npm's cache (which the checkout's `npm ci` filled):
// tests send nothing beyond loopback, so the layout of `npm i -g` is reproduced here, with the
// package's production dependencies installed by `npm ci` from its own shrinkwrap.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { bannerAddress, captured, ROOT } from '../helpers/process.js';
import { untilExit } from '../helpers/progress.js';

const run = promisify(execFile);
let t: TestDb;
let tmp: string;
let tarball: string;
let files: string[];
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(async () => {
  t = await freshDb();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pack-'));
  // The build is the checkout's own (npm ci ran prepare); prepack would only build it again.
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT, maxBuffer: 64 << 20 });
  const packed = (JSON.parse(stdout) as { filename: string; files: { path: string }[] }[])[0];
  tarball = path.join(tmp, packed.filename);
  files = packed.files.map((f) => f.path);
}, 300_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the package', () => {
  it('holds the built program and its pinned dependency tree, and no tests, benches, CI or sources', () => {
    for (const f of ['bin/switchboard.js', 'dist/switchboard.js', 'web/dist/index.html', 'npm-shrinkwrap.json', 'package.json', 'README.md']) expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('dist/db/migrations/'))).toBe(true);
    expect(files.filter((f) => /^(test|bench|\.ci|src|scripts|web\/src)\//.test(f))).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    // Exact versions: what is tested is what an install gets.
    expect(Object.entries(pkg.dependencies).filter(([, v]) => !/^\d+\.\d+\.\d+$/.test(v))).toEqual([]);
  });

  it('installs as npm i -g lays it out, answers --version, and serves from an empty folder', async () => {
    const prefix = path.join(tmp, 'global');
    const installed = path.join(prefix, 'lib', 'node_modules', 'switchboard');
    fs.mkdirSync(installed, { recursive: true });
    await run('tar', ['xzf', tarball, '-C', installed, '--strip-components=1']);
    await run('npm', ['ci', '--offline', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: installed, maxBuffer: 64 << 20 });
    fs.mkdirSync(path.join(prefix, 'bin'));
    const bin = path.join(prefix, 'bin', 'switchboard');
    fs.symlinkSync('../lib/node_modules/switchboard/bin/switchboard.js', bin);
    // Nothing of the checkout's: no devDependency came along.
    expect(fs.existsSync(path.join(installed, 'node_modules', 'vitest'))).toBe(false);

    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
    expect((await run(bin, ['--version'], { env })).stdout).toBe(`${version}\n`);

    const folder = path.join(tmp, 'empty');
    fs.mkdirSync(folder);
    const store: Record<string, string> = onPostgres() ? { DATABASE_URL: t.url!, SWITCHBOARD_DATA_DIR: path.join(tmp, 'data') } : {};
    const { child, output } = captured(
      spawn(bin, ['serve'], { cwd: folder, env: { ...env, HOST: '127.0.0.1', PORT: '0', SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS: '0', ...store }, stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    try {
      const base = await bannerAddress(child, output);
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const hub = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
      expect(hub.status).toBe(200);
      expect(await hub.text()).toMatch(/<script type="module"[^>]* src="\/assets\//);
      // The embedded store is made where an operator starting it there expects: ./.switchboard.
      if (!onPostgres()) expect(fs.existsSync(path.join(folder, '.switchboard', 'pgdata', 'PG_VERSION'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
      expect((await untilExit(child, { what: 'the installed serve to stop', output })).code).toBe(0);
    }
  }, 300_000);
});
