// The embedded store's data-dir lock: a live owner keeps it; a dead one (exited, a zombie not yet
// reaped, or a pid now used by another process) loses it to the next process; and of several
// processes starting at once on one stale lock, exactly one gets it. No database: the same on
// both stores.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, acquireLockFile, selfOwner, takeDataDirLock, type LockOwner } from '../../src/db/data-dir-lock.js';
import { exited } from '../helpers/process.js';
import { untilReady } from '../helpers/progress.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HAS_PROC = fs.existsSync('/proc/self/stat');

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  // Only the processes this file started, by pid.
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(children.map((c) => exited(c)));
  children.length = 0;
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs.length = 0;
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-lock-'));
  dirs.push(d);
  return d;
}

/** /proc/<pid>/stat: state (field 3) and start time (field 22), read independently of the code under test. */
function stat(pid: number): { state: string; start: string } {
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: f[0], start: f[19] };
}

function writeLock(dir: string, owner: LockOwner): void {
  fs.writeFileSync(path.join(dir, LOCK_FILE), owner.start ? `${owner.pid}\n${owner.start}\n` : `${owner.pid}\n`);
}

const lockText = (dir: string): string => fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8');

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A live process other than this one, with its start time. */
async function liveProcess(): Promise<LockOwner> {
  const child = spawn('sleep', ['120'], { stdio: 'ignore' });
  children.push(child);
  await until(() => fs.existsSync(`/proc/${child.pid}/stat`) && stat(child.pid!).state !== 'Z', 'the sleeper');
  return { pid: child.pid!, start: stat(child.pid!).start };
}

/**
 * A process killed with -9 whose parent never reaps it: a shell that backgrounds `sleep`, prints
 * its pid, then becomes a `sleep` itself (which never calls wait). Its pid stays a zombie.
 */
async function zombieProcess(): Promise<LockOwner> {
  const parent = spawn('sh', ['-c', 'sleep 120 & echo $!; exec sleep 120'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(parent);
  let out = '';
  parent.stdout.on('data', (d) => (out += String(d)));
  await until(() => /^\d+\n/.test(out), 'the background pid');
  const pid = Number(out.trim());
  const start = stat(pid).start;
  process.kill(pid, 'SIGKILL');
  await until(() => stat(pid).state === 'Z', 'the zombie');
  return { pid, start };
}

describe.skipIf(!HAS_PROC)('data-dir lock: who owns it', () => {
  it('records this process and its start time, and releases on close', () => {
    const dir = tempDir();
    const release = takeDataDirLock(dir);
    expect(lockText(dir)).toBe(`${process.pid}\n${stat(process.pid).start}\n`);
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('a live owner still refuses, with the same message as before', async () => {
    const dir = tempDir();
    const owner = await liveProcess();
    writeLock(dir, owner);
    expect(() => takeDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => takeDataDirLock(dir)).toThrow(
      `the data directory ${dir} is in use by process ${owner.pid}; stop it, or run operator commands while it serves (they go through its admin socket)`,
    );
    expect(lockText(dir)).toBe(`${owner.pid}\n${owner.start}\n`); // untouched
  });

  it('a lock from an older release (pid only) of a live process still refuses', async () => {
    const dir = tempDir();
    const owner = await liveProcess();
    writeLock(dir, { pid: owner.pid, start: null });
    expect(() => takeDataDirLock(dir)).toThrow(`in use by process ${owner.pid}`);
  });

  it('a live process with another start time is not the owner (pid reused): the lock is taken over', async () => {
    const dir = tempDir();
    const other = await liveProcess();
    writeLock(dir, { pid: other.pid, start: String(Number(other.start) - 1) });
    const release = takeDataDirLock(dir);
    expect(lockText(dir)).toBe(`${process.pid}\n${stat(process.pid).start}\n`);
    release();
  });

  it('a zombie owner (killed, not yet reaped) is dead: the lock is taken over', async () => {
    const dir = tempDir();
    const zombie = await zombieProcess();
    expect(() => process.kill(zombie.pid, 0)).not.toThrow(); // what fooled the old check
    writeLock(dir, zombie);
    const release = takeDataDirLock(dir);
    expect(lockText(dir)).toMatch(new RegExp(`^${process.pid}\\n`));
    release();
  });

  it('an exited owner, an empty lock file, and leftovers of an interrupted takeover are taken over', async () => {
    const dir = tempDir();
    const gone = spawnSync('true').pid;
    writeLock(dir, { pid: gone, start: '5' });
    takeDataDirLock(dir)();
    fs.writeFileSync(path.join(dir, LOCK_FILE), '');
    takeDataDirLock(dir)();
    // A process died while holding the right to remove a dead owner's lock: its takeover file
    // names a dead process too, and is itself taken over.
    const zombie = await zombieProcess();
    writeLock(dir, { pid: gone, start: '5' });
    fs.writeFileSync(path.join(dir, `${LOCK_FILE}.takeover-${gone}-5`), `${zombie.pid}\n${zombie.start}\n`);
    const release = takeDataDirLock(dir);
    expect(lockText(dir)).toMatch(new RegExp(`^${process.pid}\\n`));
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]); // no takeover or temporary files left
    release();
  });
});

describe.skipIf(!HAS_PROC)('data-dir lock: racing for a stale lock', () => {
  it('a process that takes over after another judged the lock stale does not lose it to that one', async () => {
    const dir = tempDir();
    const file = path.join(dir, LOCK_FILE);
    const other = await liveProcess(); // stands for a second server starting at the same moment
    const dead = { pid: other.pid, start: String(Number(other.start) - 1) };
    writeLock(dir, dead);
    let raced = false;
    const mine = acquireLockFile(file, selfOwner(), {
      onStale: () => {
        if (raced) return;
        raced = true;
        // Right after this process judged the lock stale, the other one takes it over completely.
        expect(acquireLockFile(file, other).taken).toBe(true);
      },
    });
    expect(raced).toBe(true);
    expect(mine).toEqual({ taken: false, holder: other });
    expect(lockText(dir)).toBe(`${other.pid}\n${other.start}\n`);
  });

  it('a takeover in progress in a live process is waited for, not broken into', async () => {
    const dir = tempDir();
    const file = path.join(dir, LOCK_FILE);
    const other = await liveProcess();
    const dead = { pid: other.pid, start: '1' };
    writeLock(dir, dead);
    // The other process holds the right to remove the dead owner's lock and never finishes.
    fs.writeFileSync(`${file}.takeover-${dead.pid}-1`, `${other.pid}\n${other.start}\n`);
    expect(acquireLockFile(file, selfOwner())).toEqual({ taken: false, holder: other });
    expect(lockText(dir)).toBe(`${dead.pid}\n1\n`);
  });

  it('several processes starting at once on a stale lock: exactly one gets it, every time', { timeout: 180_000 }, async () => {
    const dir = tempDir();
    const signals = tempDir();
    const CONTENDERS = 4;
    const ROUNDS = 6;
    const outputs: string[] = [];
    for (let i = 0; i < CONTENDERS; i++) {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/helpers/lock-contender.ts'), dir, signals, String(ROUNDS)], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      outputs[i] = '';
      child.stdout.on('data', (d) => (outputs[i] += String(d)));
    }
    const started = children.slice(-CONTENDERS);
    await untilReady(started, () => outputs.every((o) => o.startsWith('ready\n')), { what: 'the contenders to start', output: () => outputs.join('\n---\n') });
    for (let round = 0; round < ROUNDS; round++) {
      // Stale: this test process's pid with a start time it never had (a reused pid).
      writeLock(dir, { pid: process.pid, start: String(round + 1) });
      fs.writeFileSync(path.join(signals, `go-${round}`), '');
      const line = new RegExp(`^${round} (won|refused)$`, 'm');
      await until(() => outputs.every((o) => line.test(o)), `round ${round}`, 60_000);
      const won = outputs.filter((o) => line.exec(o)![1] === 'won');
      expect(won, `round ${round}`).toHaveLength(1);
    }
    fs.writeFileSync(path.join(signals, 'end'), '');
    for (const c of children) expect(await exited(c)).toBe(0);
  });
});
