// Process-level: a real `serve` on the embedded store, operator commands from other CLI processes
// (which must go through the admin socket, since the server holds the data-dir lock), then a
// kill -9 and a restart: every answer the server gave must still be true.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { captured } from '../helpers/process.js';
import { untilExit, untilReady } from '../helpers/progress.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENTRY = path.join(ROOT, 'src/cli/entry.ts');
const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-format.json');

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  // Whatever happened, leave no server behind (by pid, only the ones this file started).
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  started.length = 0;
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs.length = 0;
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function spawnCli(args: string[], env: Record<string, string>): { child: ChildProcess; output: () => string } {
  // Only what the CLI needs: no DATABASE_URL from the outer environment can slip in.
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: ROOT,
    // No shedding for the lag of a loaded test machine (helpers/process.ts says why).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return captured(child);
}

/** Its exit, waited for as long as it makes progress (test/helpers/progress.ts). */
function exited(child: ChildProcess, what: string, output: () => string = () => ''): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return untilExit(child, { what: `${what} (pid ${child.pid}) to exit`, output });
}

/** Runs one CLI command to completion. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const { code } = await exited(child, `switchboard ${args[0]}`, () => stdout + stderr);
  return { code, stdout, stderr };
}

/** Starts `serve` and waits until /healthz answers, as long as the server makes progress (progress.ts). */
async function serve(env: Record<string, string>, baseUrl: string) {
  const server = spawnCli(['serve'], env);
  const healthy = async () => {
    try {
      return (await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2000) })).status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  await untilReady(server.child, healthy, { what: 'serve to answer /healthz', output: server.output });
  return server;
}

async function status(baseUrl: string, key: string): Promise<{ status: number; code?: string }> {
  const r = await fetch(`${baseUrl}/v1/workflows`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
  const body = (await r.json()) as { error?: { code?: string } };
  return { status: r.status, code: body.error?.code };
}

describe('admin socket (embedded store, real processes)', () => {
  // The socket exists only for the embedded store: on PostgreSQL every process opens the
  // database itself, so there is nothing to test there.
  it('operator commands reach the running server, and its answers survive kill -9', { timeout: 240_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sock-'));
    dirs.push(dir);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const env = { SWITCHBOARD_DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };

    const first = await serve(env, baseUrl);
    const lock = path.join(dir, 'switchboard.lock');
    expect(fs.readFileSync(lock, 'utf8').split('\n')[0]).toBe(String(first.child.pid)); // then its start time
    expect(fs.statSync(path.join(dir, 'admin.sock')).mode & 0o777).toBe(0o600);

    // The server holds the data-dir lock, so these can only succeed through its socket.
    const seeded = await cli(['seed', FIXTURE, '--json'], env);
    expect(seeded.code, seeded.stderr).toBe(0);
    const acme = JSON.parse(seeded.stdout).accounts.acme as { id: string; users: Record<string, string>; keys: Record<string, string> };

    const create = (name: string) =>
      cli(['keys', 'create', '--account', acme.id, '--by', acme.users.olivia, '--name', name, '--scopes', 'workflows:read', '--json'], env);
    const kept = await create('kept');
    expect(kept.code, kept.stderr).toBe(0);
    const keep = JSON.parse(kept.stdout) as { id: string; key: string };
    const dropped = await create('dropped');
    const drop = JSON.parse(dropped.stdout) as { id: string; key: string };
    // Used first, so the server's key cache holds it: the revoke through the socket runs on the
    // server's own store and must clear that cache (src/keys/invalidate.ts).
    for (let i = 0; i < 2; i++) expect(await status(baseUrl, drop.key)).toEqual({ status: 200, code: undefined });
    const revoked = await cli(['keys', 'revoke', '--account', acme.id, '--key', drop.id], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toMatch(/revoked key/);
    const migrated = await cli(['migrate'], env);
    expect(migrated.stdout).toMatch(/already migrated by the running server/);
    expect(first.output()).toMatch(/"msg":"admin command"/);
    expect(first.output()).not.toContain(keep.key); // the server never logs a key it handed out

    expect(await status(baseUrl, keep.key)).toEqual({ status: 200, code: undefined });
    expect(await status(baseUrl, acme.keys.integration)).toMatchObject({ status: 200 });
    expect(await status(baseUrl, drop.key)).toEqual({ status: 401, code: 'api_key_revoked' });

    // Crash: no shutdown, no lock release, a stale socket file left behind.
    first.child.kill('SIGKILL');
    expect((await exited(first.child, 'the killed server')).signal).toBe('SIGKILL');
    expect(fs.existsSync(lock)).toBe(true);

    const second = await serve(env, baseUrl);
    expect(await status(baseUrl, keep.key)).toEqual({ status: 200, code: undefined });
    expect(await status(baseUrl, acme.keys.integration)).toMatchObject({ status: 200 });
    expect(await status(baseUrl, drop.key)).toEqual({ status: 401, code: 'api_key_revoked' });
    const listed = await cli(['keys', 'list', '--account', acme.id, '--json'], env);
    const states = Object.fromEntries(JSON.parse(listed.stdout).keys.map((k: { id: string; state: string }) => [k.id, k.state]));
    expect(states).toMatchObject({ [keep.id]: 'active', [drop.id]: 'revoked' });

    second.child.kill('SIGTERM');
    expect(await exited(second.child, 'serve after SIGTERM', second.output)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(lock)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'admin.sock'))).toBe(false);

    // With no server, the CLI opens the store itself and sees the same data.
    const offline = await cli(['keys', 'list', '--account', acme.id, '--json'], env);
    expect(offline.code, offline.stderr).toBe(0);
    expect(JSON.parse(offline.stdout).keys.length).toBe(JSON.parse(listed.stdout).keys.length);
  });

  // Same reason as above: the data-dir lock and the socket exist only for the embedded store.
  it('without a server: a stale socket is ignored, a live lock holder that does not answer is named', { timeout: 120_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sock-'));
    dirs.push(dir);
    const env = { SWITCHBOARD_DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    // A socket file left by a process killed while listening, and no lock: the CLI opens the store
    // itself (a new one here, as --create asks: an operator command never makes one silently).
    const sock = path.join(dir, 'admin.sock');
    const script = `require('net').createServer().listen(${JSON.stringify(sock)}, () => process.kill(process.pid, 'SIGKILL'))`;
    await exited(spawn(process.execPath, ['-e', script]), 'a socket holder killing itself');
    expect(fs.lstatSync(sock).isSocket()).toBe(true);
    const local = await cli(['account', 'show', '--account', '0190a8a0-0000-7000-8000-000000000000', '--create'], env);
    expect(local).toMatchObject({ code: 1, stderr: 'error: no account 0190a8a0-0000-7000-8000-000000000000\n' });
    expect(fs.existsSync(path.join(dir, 'switchboard.lock'))).toBe(false); // released on close

    // A live process holds the lock but nobody answers on the socket: say so, do not hang.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    started.push(holder);
    fs.writeFileSync(path.join(dir, 'switchboard.lock'), String(holder.pid));
    const refused = await cli(['keys', 'list', '--account', '0190a8a0-0000-7000-8000-000000000000'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(`in use by process ${holder.pid}`);
    expect(refused.stderr).toMatch(/does not answer on the admin socket/);
  });
});
