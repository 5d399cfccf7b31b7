// The embedded store's ownership: a lock file in the data dir naming the process that owns it
// (its pid and, where /proc exists, its start time). A lock whose owner is gone is taken over:
// after a kill -9 the restart must not be refused because the dead server's pid is still a zombie
// (killed, not yet reaped by its parent) or has been handed to another process.
//
// Taking over is race-free: a stale lock is removed only by the process that won the right to
// remove that one lock (an exclusive "takeover" file named after the dead owner), and only after
// it has read the lock again and found the same dead owner; the lock itself is only ever created
// exclusively. So of several processes starting at once on one stale lock, exactly one owns it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

export const LOCK_FILE = 'switchboard.lock';

/** Who holds a lock: a pid and, when known, that process's start time (clock ticks since boot). */
export interface LockOwner {
  pid: number;
  start: string | null;
}

const PROC = '/proc';

interface ProcStat {
  state: string;
  start: string;
}

/** /proc/<pid>/stat's state (field 3) and start time (field 22); null when unreadable. */
function procStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`${PROC}/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const start = fields[22 - 3];
  return fields[0] && start && /^\d+$/.test(start) ? { state: fields[0], start } : null;
}

/** This process as a lock owner. */
export function selfOwner(): LockOwner {
  return { pid: process.pid, start: procStat(process.pid)?.start ?? null };
}

function formatOwner(o: LockOwner): string {
  // First line the pid alone (what older releases wrote and read); the start time below it.
  return o.start ? `${o.pid}\n${o.start}\n` : `${o.pid}\n`;
}

function parseOwner(text: string): LockOwner | null {
  const [pid, start] = text.split('\n').map((s) => s.trim());
  const n = Number(pid);
  if (!/^\d+$/.test(pid ?? '') || !Number.isSafeInteger(n) || n <= 0) return null;
  return { pid: n, start: start && /^\d+$/.test(start) ? start : null };
}

/**
 * Whether the recorded owner still runs. Without /proc (macOS, BSD) only the pid can be asked:
 * a zombie or a reused pid then still counts as alive, and the lock must be removed by hand.
 */
export function ownerAlive(o: LockOwner): boolean {
  if (o.pid === process.pid) return false; // never another process; a lock we left ourselves (a reused pid 1 in a container)
  try {
    process.kill(o.pid, 0);
  } catch (err) {
    // EPERM: the pid exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(o.pid);
  if (!stat) return true; // no /proc, or not ours to read: the pid exists, so assume it is the owner
  if (stat.state === 'Z' || stat.state === 'X') return false; // killed, waiting for its parent to reap it
  return o.start === null || o.start === stat.start; // another start time: the pid was reused
}

function readOwner(file: string): { owner: LockOwner | null; text: string } | null {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return { owner: parseOwner(text), text };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Creates the file with its content in one step: written to a private temporary file, then
 * hard-linked into place (fails if the lock exists). An exclusive create followed by a write would
 * show an empty lock for a moment, which another process could take for a dead owner's.
 */
function tryCreate(file: string, self: LockOwner): boolean {
  const tmp = `${file}.new-${process.pid}-${randomBytes(6).toString('hex')}`;
  fs.writeFileSync(tmp, formatOwner(self), { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // A file system without hard links: an exclusive create, then the write (as before).
    try {
      fs.writeFileSync(file, formatOwner(self), { flag: 'wx', mode: 0o600 });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes the file only while it still says what we read (best effort: used for our own files). */
function removeIfUnchanged(file: string, text: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === text) fs.unlinkSync(file);
  } catch {
    /* already gone */
  }
}

const sleep = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

export type LockResult = { taken: true; release: () => void } | { taken: false; holder: LockOwner | null };

export interface LockHooks {
  /** Called after a stale lock was judged stale, before this process competes to remove it (tests). */
  onStale?: (file: string, dead: LockOwner) => void;
}

/** Takeovers nest only when a process dies in the middle of one; past this depth something else is wrong. */
const MAX_DEPTH = 3;
/** A live process holding a takeover file finishes in microseconds; wait at most this for it. */
const TAKEOVER_WAIT_MS = 2_000;

/**
 * Creates `file` exclusively as `self`, taking over a lock whose owner is dead. Resolves
 * `{taken: false, holder}` when a live process holds it (holder null: no live process can be named).
 */
export function acquireLockFile(file: string, self: LockOwner, hooks: LockHooks = {}, depth = 0): LockResult {
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    if (tryCreate(file, self)) {
      const mine = formatOwner(self);
      return { taken: true, release: () => removeIfUnchanged(file, mine) };
    }
    const seen = readOwner(file);
    if (!seen) continue; // removed since: try to create it again
    const holder = seen.owner;
    if (holder && ownerAlive(holder)) return { taken: false, holder };
    if (depth >= MAX_DEPTH) return { taken: false, holder: null };
    hooks.onStale?.(file, holder ?? { pid: 0, start: null });
    // Only the process that creates this takeover file may remove this (dead) lock. Content that
    // names no process (written by hand, or by an older release that crashed mid-write) is stale too.
    const name = holder ? `${holder.pid}-${holder.start ?? 'x'}` : 'unreadable';
    const takeover = acquireLockFile(`${file}.takeover-${name}`, self, hooks, depth + 1);
    if (!takeover.taken) {
      // Another live process is removing this lock right now: look again shortly. Should it not
      // finish (stopped, not dead), that process is the one about to own the data dir.
      if (Date.now() > deadline) return { taken: false, holder: takeover.holder };
      sleep(10);
      continue;
    }
    try {
      // Read again under the takeover file: only remove the very lock judged stale.
      if (readOwner(file)?.text === seen.text) fs.rmSync(file, { force: true });
    } finally {
      takeover.release();
    }
  }
}

/** Removes takeover and temporary files left by processes that died mid-way (their locks are long gone). */
function clearLeftovers(dataDir: string): void {
  for (const f of fs.readdirSync(dataDir)) {
    const tmp = /^switchboard\.lock(?:\.takeover-.*)?\.new-(\d+)-/.exec(f);
    const dead = tmp ? !ownerAlive({ pid: Number(tmp[1]), start: null }) && Number(tmp[1]) !== process.pid : false;
    if (dead || (!tmp && f.startsWith(`${LOCK_FILE}.takeover-`))) fs.rmSync(path.join(dataDir, f), { force: true });
  }
}

/** Takes the data-dir lock; throws DataDirLockedError while a live process holds it. Returns the release. */
export function takeDataDirLock(dataDir: string, hooks: LockHooks = {}): () => void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  const got = acquireLockFile(file, selfOwner(), hooks);
  if (got.taken) {
    clearLeftovers(dataDir);
    return got.release;
  }
  if (got.holder) {
    throw new DataDirLockedError(
      `the data directory ${dataDir} is in use by process ${got.holder.pid}; ` +
        'stop it, or run operator commands while it serves (they go through its admin socket)',
    );
  }
  throw new DataDirLockedError(`could not take the lock on ${dataDir}`);
}
