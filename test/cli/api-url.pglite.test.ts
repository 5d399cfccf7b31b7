// On the embedded store: a server killed with -9 whose parent has not reaped it yet (a zombie) does
// not keep the next server from starting.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/pglite.js';
import { captured, exited, startServer, type ServerProcess } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';
import { until } from '../engine/automations/support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const children: ChildProcess[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  // Only the processes this file started, by pid.
  for (const c of [...children, ...servers.map((s) => s.child)]) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all([...children, ...servers.map((s) => s.child)].map((c) => exited(c)));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function track(child: ChildProcess): { child: ChildProcess; output: () => string } {
  children.push(child);
  return captured(child);
}

describe('embedded store: restart right after kill -9', () => {
  it.runIf(fs.existsSync('/proc/self/stat'))(
    'a server killed with -9 and not yet reaped (a zombie) does not hold the data dir; the URL it bound was recorded',
    { timeout: 240_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-zombie-'));
      dirs.push(dir);
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), LOG_LEVEL: 'warn', SWITCHBOARD_DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0' };
      // The server's parent is a shell that becomes `sleep`, which never reaps its children.
      const parent = track(
        spawn('sh', ['-c', '"$0" --import tsx "$1" serve & echo "pid $!"; exec sleep 300', process.execPath, path.join(ROOT, 'src/cli/entry.ts')], {
          cwd: ROOT,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      // The shell's child's CPU time counts as progress too (progress.ts).
      await untilReady(parent.child, () => /listening on http:\/\/[^\s;]+/.test(parent.output()), { what: 'the first server to listen', output: parent.output });
      const pid = Number(/^pid (\d+)$/m.exec(parent.output())![1]);
      const firstUrl = /listening on (http:\/\/[^\s;]+)/.exec(parent.output())![1];
      expect(firstUrl).not.toMatch(/:0$/);
      process.kill(pid, 'SIGKILL');
      const state = () => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
      await until('the killed server to be a zombie', () => state() === 'Z', 10_000);

      // The restart: the lock still names the dead server, whose pid still exists.
      const second = await startServer({ SWITCHBOARD_DATA_DIR: dir });
      servers.push(second);
      expect(state()).toBe('Z'); // nobody reaped it meanwhile: the lock was taken over from a zombie
      const code = await second.stop();
      expect({ code, signal: second.child.signalCode }, second.output()).toEqual({ code: 0, signal: null });

      // The killed server's row is still there (it never stopped cleanly); the second removed its own.
      const db = await openPglite({ dataDir: dir });
      try {
        expect((await db.query<{ url: string }>('select url from api_urls')).map((r) => r.url)).toEqual([firstUrl]);
      } finally {
        await db.close();
      }
    },
  );
});
