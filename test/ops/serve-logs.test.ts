// What serve writes as it starts, read as a log collector and as a person at a terminal would:
// - to a pipe, every line on stdout is JSON, the banner included (at any LOG_LEVEL), and the
//   set-up token is never among them: it is in <data dir>/setup-token (mode 0600), which the log
//   names;
// - on a terminal, the banner is also said plainly, with the token itself;
// - once an account exists the token is void, and the next start removes its file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDb, onPostgres } from '../helpers/db.js';
import { exited, runCli, ROOT } from '../helpers/process.js';
import { untilExit, untilReady } from '../helpers/progress.js';
import { storeAndFolder } from '../helpers/store-and-folder.js';

const file = storeAndFolder('sb-logs-');

const dataDir = () => path.join(file.tmp, 'data');
/** This file's store: its PostgreSQL database, or the embedded store in the data dir; the data dir on both. */
const storeEnv = (): Record<string, string> => ({ SWITCHBOARD_DATA_DIR: dataDir(), ...(onPostgres() ? { DATABASE_URL: file.t.url! } : {}) });
const tokenFile = () => path.join(dataDir(), 'setup-token');

/**
 * serve with stdout and stderr apart; resolves once it has logged where it listens, and with
 * `setup`, its first-run set-up line too (logged just after the banner: possibly in a later chunk).
 */
async function serveToPipe(opts: { setup?: boolean } = {}) {
  const child = runCli(['serve', '--role', 'api'], { ...storeEnv(), HOST: '127.0.0.1', PORT: '0' });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const output = () => stdout + stderr;
  await untilReady(child, () => stdout.includes('first-run set-up') || /"msg":"switchboard listening on [^"]*"}\n/.test(stdout), { what: 'serve to log its banner', output });
  await untilReady(child, () => stdout.endsWith('\n'), { what: 'the line to end', output });
  if (opts.setup) await untilReady(child, () => /"msg":"first-run set-up[^\n]*\n/.test(stdout), { what: 'serve to log its set-up line', output });
  const stop = async () => {
    child.kill('SIGTERM');
    expect((await untilExit(child, { what: 'serve to stop', output })).code).toBe(0);
  };
  return { stdout: () => stdout, stderr: () => stderr, stop };
}

describe('serve, started to a pipe', () => {
  it('logs JSON lines only, the banner among them even at LOG_LEVEL=warn, and names the set-up token file but never the token', async () => {
    const s = await serveToPipe({ setup: true });
    try {
      const lines = s.stdout().trimEnd().split('\n');
      const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const banner = parsed.find((l) => String(l.msg).startsWith('switchboard listening on http://127.0.0.1:'));
      expect(banner).toMatchObject({ level: 30, role: 'api', store: onPostgres() ? expect.stringMatching(/^postgres /) : `pglite, data dir ${dataDir()}` });
      expect(String(banner!.msg)).toContain(`listening on ${String(banner!.address)}; role api`);
      const setup = parsed.find((l) => String(l.msg).startsWith('first-run set-up'));
      expect(setup).toMatchObject({ level: 30, setupTokenFile: tokenFile(), setupUrl: `${String(banner!.address)}/setup` });
      expect(String(setup!.msg)).toBe(`first-run set-up: open ${String(banner!.address)}/setup in a browser; from another machine it asks for the set-up token in ${tokenFile()} (readable by this user only)`);

      const token = fs.readFileSync(tokenFile(), 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(fs.statSync(tokenFile()).mode & 0o777).toBe(0o600);
      expect(s.stdout() + s.stderr()).not.toContain(token);
      // The token in the file is the one the server accepts.
      const res = await fetch(`${String(banner!.address)}/hub/api/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: String(banner!.address), 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ account_name: 'Acme', name: 'Olivia', email: 'olivia@acme.example', password: 'correct horse battery staple', setup_token: token }),
      });
      expect(res.status).toBe(200);
      // Set-up is over: the token is void and its file is gone.
      expect(fs.existsSync(tokenFile())).toBe(false);
    } finally {
      await s.stop();
    }
  }, 180_000);

  it('removes a token file left from before once set-up is over', async () => {
    fs.writeFileSync(tokenFile(), 'stale-token-from-an-earlier-start\n', { mode: 0o600 });
    const s = await serveToPipe();
    try {
      expect(s.stdout()).not.toContain('first-run set-up');
      expect(fs.existsSync(tokenFile())).toBe(false);
    } finally {
      await s.stop();
    }
  }, 180_000);
});

describe('serve, started on a terminal', () => {
  it('also says the banner plainly, with the set-up token', async () => {
    // A fresh store (no account yet): `script` gives serve a pseudo-terminal for its stdout.
    const fresh = onPostgres() ? await freshDb() : null;
    const dir = path.join(file.tmp, 'tty');
    const env = { SWITCHBOARD_DATA_DIR: dir, ...(fresh ? { DATABASE_URL: fresh.url! } : {}) };
    const cmd = `${process.execPath} --import tsx src/cli/entry.ts serve --role api`;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    try {
      await untilReady(child, () => /set-up token [A-Za-z0-9_-]{32}\r?\n/.test(out), { what: 'serve to print the plain banner', output: () => out });
      const token = fs.readFileSync(path.join(dir, 'setup-token'), 'utf8').trim();
      expect(out).toMatch(/^switchboard listening on http:\/\/127\.0\.0\.1:\d+; role api; /m);
      expect(out).toContain(`from another machine it asks for the set-up token ${token}`);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited(child);
      await fresh?.close();
    }
  }, 180_000);
});

