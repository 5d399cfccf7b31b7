// The program `npm start` runs: bin/switchboard.js and the bundle that `npm ci` builds
// (scripts/bundle.mjs), not the TypeScript sources the other tests run through tsx. Everything
// that finds a file beside the code goes through it once here: the migrations (a fresh store),
// the hub's build (web/dist), the page worker (dist/lib/page-worker.js, a page converted through
// /v1) and package.json (--version); and the chunks loaded on demand (the operator commands sent
// to the running server, the PostgreSQL driver on that store).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, onPostgres, type TestDb } from '../helpers/db.js';
import { bannerAddress, captured, exited } from '../helpers/process.js';
import { untilExit } from '../helpers/progress.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'switchboard.js');
const BUNDLE = path.join(ROOT, 'dist', 'switchboard.js');

let t: TestDb | null = null;
let tmp: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-built-'));
  if (onPostgres()) t = await freshDb();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(children.map((c) => exited(c)));
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** This file's store: its own database (PostgreSQL run, migrated from the template) or a new embedded data dir. */
function storeEnv(): Record<string, string> {
  return t ? { DATABASE_URL: t.url! } : { SWITCHBOARD_DATA_DIR: path.join(tmp, 'data') };
}

/** The bin executed itself, as `npm start` and an operator's shell do: its first line picks node and the flags. */
function run(args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(BIN, args, {
    cwd: tmp, // not the checkout: nothing may depend on the working directory
    // No shedding for the lag of a loaded test machine (helpers/process.ts says why).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return captured(child);
}

async function runToExit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const p = run(args, env);
  const { code } = await untilExit(p.child, { what: `switchboard ${args.join(' ')} to exit`, output: p.output });
  return { code, out: p.output() };
}

const FIXTURE = {
  accounts: [
    {
      ref: 'acme',
      name: 'Acme Ltd',
      tier: 'team',
      users: [{ ref: 'olivia', email: 'olivia@acme.example', role: 'owner', password: 'correct horse battery staple', name: 'Olivia Owner' }],
      keys: [{ ref: 'content', name: 'Content', scopes: ['content:read', 'content:write'] }],
      projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }],
    },
  ],
};

describe('the built program (bin/switchboard.js)', () => {
  it('is the bundle that npm ci builds', () => {
    expect(fs.existsSync(BUNDLE), 'dist/switchboard.js is missing: run `npm run build`').toBe(true);
    expect(fs.readFileSync(BIN, 'utf8')).toContain("from '../dist/switchboard.js'");
  });

  it('has TypeBox bundled in, and the other packages left to node_modules', () => {
    // scripts/bundle.mjs INLINE: TypeBox's 266 files cost ~100 ms of every start when imported.
    const chunks = path.join(ROOT, 'dist', 'chunks');
    const files = [BUNDLE, ...fs.readdirSync(chunks).filter((f) => f.endsWith('.js')).map((f) => path.join(chunks, f))];
    const code = files.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
    expect(code).not.toMatch(/from\s*["']@sinclair\/typebox/);
    expect(code).toContain('TypeBox.Kind');
    expect(code).toMatch(/from\s*["']fastify["']/);
    expect(code).toMatch(/from\s*["']@electric-sql\/pglite["']/);
  });

  it('is what npm start runs, executed itself so the node flags of its first line apply', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('bin/switchboard.js serve');
    expect(fs.readFileSync(BIN, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env -S node --v8-pool-size=2');
    expect(fs.statSync(BIN).mode & 0o111, 'bin/switchboard.js must be executable').not.toBe(0);
  });

  it('--version prints package.json\'s version', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await runToExit(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(pkg.version);
  });

  it('serves a fresh store: migrations, hub, OpenAPI, operator commands and a page converted by the page worker', { timeout: 180_000 }, async () => {
    const server = run(['serve'], { ...storeEnv(), HOST: '127.0.0.1', PORT: '0' });
    const base = await bannerAddress(server.child, server.output);
    // The migrator read its SQL files (it checks them against the store even when none is pending).
    if (!t) expect(server.output()).toContain('"msg":"applied migrations"');
    // The node flags of the bin's first line are in force (Linux shows them in the command line).
    if (process.platform === 'linux') {
      const argv = fs.readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
      expect(argv).toContain('--v8-pool-size=2');
    }
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    // The hub's single-page app, from web/dist (HTML for a browser that asks for it).
    const hub = await fetch(`${base}/`, { headers: { accept: 'text/html' } });
    expect(hub.status).toBe(200);
    expect(hub.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await hub.text()).toMatch(/<script type="module"[^>]* src="\/assets\//);
    const spec = await fetch(`${base}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./);

    // An operator command: through the admin socket on the embedded store, straight to PostgreSQL.
    fs.writeFileSync(path.join(tmp, 'fixture.json'), JSON.stringify(FIXTURE));
    const seeded = await runToExit(['seed', 'fixture.json', '--json'], storeEnv());
    expect(seeded.code, seeded.out).toBe(0);
    const acme = (JSON.parse(seeded.out) as { accounts: Record<string, { keys: Record<string, string>; projects: Record<string, string> }> }).accounts.acme;

    const res = await fetch(`${base}/v1/projects/${acme.projects.site}/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acme.keys.content}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'About', markdown: '# About us\n\nWe make *things*.<script>alert(1)</script>' }),
    });
    const body = (await res.json()) as { kind: string; html: string };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.kind).toBe('page');
    // Converted and sanitised: the worker loaded the Markdown converter and sanitize-html.
    expect(body.html).toBe('<h1>About us</h1>\n<p>We make <em>things</em>.</p>\n');

    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
  });
});
