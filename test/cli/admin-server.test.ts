// The admin socket in-process: protocol, permissions, stale sockets, and that an answer through the
// socket is the answer of the same command run directly. (The process-level crash test is
// admin-socket.test.ts.) The socket code does not depend on the store, so this runs on both.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAdminRequest } from '../../src/admin/client.js';
import { startAdminServer, type AdminServer } from '../../src/admin/server.js';
import { socketPath } from '../../src/admin/protocol.js';
import { filesContext, runOperatorCommand } from '../../src/cli/operator.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { makeAccount, type TestAccount } from './support.js';

const quiet = { info: () => {}, warn: () => {} };
let t: TestDb;
let dir: string;
let acct: TestAccount;
let admin: AdminServer;

beforeAll(async () => {
  t = await freshDb();
  acct = await makeAccount(t.db);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-adm-'));
  admin = await startAdminServer(socketPath(dir), (req) => runOperatorCommand(t.db, req.argv, filesContext(req.files ?? {}, 'server')), quiet);
});
const scratch: string[] = [];
/** A fresh directory for one socket, removed after the file. */
function tmpSocket(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-adm-'));
  scratch.push(d);
  return socketPath(d);
}

afterAll(async () => {
  await admin?.close();
  await t?.close();
  for (const d of [dir, ...scratch]) fs.rmSync(d, { recursive: true, force: true });
});

const send = (argv: string[], files = {}) => sendAdminRequest(admin.path, { argv, cwd: '/', files }, { connectTimeoutMs: 2000, responseTimeoutMs: 10_000 });

/** Sends raw bytes and returns the parsed answer line. */
function raw(p: string, text: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection(p);
    let buf = '';
    s.on('connect', () => s.write(text));
    s.on('data', (d) => (buf += String(d)));
    s.on('close', () => resolve(JSON.parse(buf)));
    s.on('error', reject);
  });
}

/** A socket file left behind by a process killed while listening. */
function staleSocket(p: string): void {
  const script = `require('net').createServer().listen(${JSON.stringify(p)}, () => process.kill(process.pid, 'SIGKILL'))`;
  spawnSync(process.execPath, ['-e', script], { timeout: 10_000 });
  expect(fs.lstatSync(p).isSocket()).toBe(true);
}

describe('admin socket server', () => {
  it('is owner-only', () => {
    expect(fs.statSync(admin.path).mode & 0o777).toBe(0o600);
  });

  it('answers exactly as the command run directly', async () => {
    const created = await send(['keys', 'create', '--account', acct.id, '--by', acct.owner, '--name', 'via socket', '--json']);
    expect(created?.code, created?.stderr).toBe(0);
    const id = JSON.parse(created!.stdout).id;
    const direct = await runOperatorCommand(t.db, ['keys', 'list', '--account', acct.id]);
    expect(await send(['keys', 'list', '--account', acct.id])).toEqual(direct);
    expect(direct.stdout).toContain(id);
    // Refusals too: same code, same message.
    const bad = ['keys', 'revoke', '--account', acct.id, '--key', 'nope'];
    expect(await send(bad)).toEqual(await runOperatorCommand(t.db, bad));
    expect((await send(bad))!.code).toBe(2);
  });

  it('reads seed input only from what the client sent', async () => {
    const r = await send(['seed', '/etc/hostname']);
    expect(r).toMatchObject({ code: 1, stderr: 'error: /etc/hostname was not sent with the command\n' });
    const r2 = await send(['seed', 'x.json'], { 'x.json': { text: '{nope' } });
    expect(r2?.stderr).toMatch(/x\.json is not valid JSON/);
  });

  it('refuses malformed requests', async () => {
    expect(await raw(admin.path, 'hello\n')).toMatchObject({ code: 2, stderr: 'error: the admin request is not JSON\n' });
    expect(await raw(admin.path, '{"argv": "keys", "cwd": "/"}\n')).toMatchObject({ code: 2, stderr: expect.stringMatching(/argv must be/) });
    expect(await raw(admin.path, '{"argv": ["serve"], "cwd": "/"}\n')).toMatchObject({ code: 2 });
    expect(await raw(admin.path, '{"argv": ["migrate"], "cwd": "/", "files": {"a": 1}}\n')).toMatchObject({ code: 2 });
  });

  it('lets a command in flight finish and answer before it closes', async () => {
    const p = tmpSocket();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = await startAdminServer(p, async () => {
      await gate;
      return { code: 0, stdout: 'finished\n', stderr: '' };
    }, quiet);
    const answer = sendAdminRequest(p, { argv: ['migrate'], cwd: '/' });
    await new Promise((r) => setTimeout(r, 100));
    let closed = false;
    const closing = slow.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    release();
    expect(await answer).toEqual({ code: 0, stdout: 'finished\n', stderr: '' });
    await closing;
    expect(fs.existsSync(p)).toBe(false);
    // Nobody listens now: the client says so with null (the CLI then opens the store itself).
    expect(await sendAdminRequest(p, { argv: ['migrate'], cwd: '/' })).toBeNull();
  });
});

describe('stale and foreign socket files', () => {
  it('the client treats a stale socket as no server, and a new server replaces it', async () => {
    const p = tmpSocket();
    staleSocket(p);
    expect(await sendAdminRequest(p, { argv: ['migrate'], cwd: '/' })).toBeNull();
    const s = await startAdminServer(p, async () => ({ code: 0, stdout: 'ok\n', stderr: '' }), quiet);
    expect(await sendAdminRequest(p, { argv: ['migrate'], cwd: '/' })).toEqual({ code: 0, stdout: 'ok\n', stderr: '' });
    await s.close();
  });

  it('refuses to start over a live server or a file that is not a socket, or on a path too long', async () => {
    await expect(startAdminServer(admin.path, async () => ({ code: 0, stdout: '', stderr: '' }), quiet)).rejects.toThrow(/another process answers/);
    const f = path.join(dir, 'plain');
    fs.writeFileSync(f, 'x');
    await expect(startAdminServer(f, async () => ({ code: 0, stdout: '', stderr: '' }), quiet)).rejects.toThrow(/not a socket/);
    const long = path.join(dir, 'x'.repeat(120), 'admin.sock');
    await expect(startAdminServer(long, async () => ({ code: 0, stdout: '', stderr: '' }), quiet)).rejects.toThrow(/shorter SWITCHBOARD_DATA_DIR/);
  });
});
