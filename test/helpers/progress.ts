// Waits on child processes with deadlines set by the child's progress rather than by the clock.
// A fixed "within 60 s" fails on a loaded machine (a CI run beside another, busy loops: a start
// that takes 5 s quiet took over 60 s there) and waits too long for a child that hung. Here the
// wait goes on while the child makes progress (prints something, or its CPU time grows, read from
// /proc/<pid>/stat), so a machine ten times slower still passes; it fails at once with the
// child's output when the child exits first, and after IDLE_MS with no progress at all.
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** How long a child may print nothing and use no CPU time before a wait on it fails. */
export const IDLE_MS = 30_000;

export interface ProgressWait {
  /** What is awaited, for the error: "serve to answer /healthz". */
  what: string;
  /** Everything the child has printed so far: progress, and the error's detail. */
  output: () => string;
  /** How long the child may make no progress before the wait fails (default IDLE_MS). */
  idleMs?: number;
  /** How often to look (default 100 ms). */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The child's CPU time so far in clock ticks (its own and its waited-for children's); 0 without /proc. */
export function cpuTicks(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": state is field 3, utime 14, stime 15, cutime 16, cstime 17; comm may hold spaces.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return 0; // gone, or no /proc (not Linux): the output alone tells progress
  }
}

/** Tracks whether a child made progress since the last look, and how long it has not. */
class Progress {
  private mark: string;
  private since = performance.now();

  constructor(
    private readonly child: ChildProcess,
    private readonly output: () => string,
  ) {
    this.mark = this.now();
  }

  private now(): string {
    return `${this.output().length}:${cpuTicks(this.child.pid)}`;
  }

  /** Milliseconds since the child last printed something or used CPU time. */
  idleFor(): number {
    const mark = this.now();
    if (mark !== this.mark) {
      this.mark = mark;
      this.since = performance.now();
    }
    return performance.now() - this.since;
  }
}

const ended = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/**
 * Resolves with the first truthy answer of `ready` (polled; it must bound its own waits, e.g. a
 * fetch with a timeout). Fails with the child's output when the child exits first, or when it
 * has made no progress for idleMs.
 */
export async function untilReady<T>(child: ChildProcess, ready: () => T | null | undefined | false | Promise<T | null | undefined | false>, w: ProgressWait): Promise<T> {
  const progress = new Progress(child, w.output);
  const idleMs = w.idleMs ?? IDLE_MS;
  for (;;) {
    const answer = await ready();
    if (answer) return answer;
    if (ended(child)) {
      throw new Error(`waiting for ${w.what}: the process exited first (code ${child.exitCode}, signal ${child.signalCode}); it printed:\n${w.output()}`);
    }
    if (progress.idleFor() > idleMs) {
      throw new Error(`waiting for ${w.what}: the process made no progress for ${idleMs / 1000} s (no output, no CPU time); it printed:\n${w.output()}`);
    }
    await sleep(w.pollMs ?? 100);
  }
}

/**
 * The child's exit code and signal, once it exits; fails (and kills the child, so nothing is left
 * behind) when it has made no progress for idleMs meanwhile.
 */
export async function untilExit(child: ChildProcess, w: ProgressWait): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  try {
    return await untilReady(child, () => (ended(child) ? { code: child.exitCode, signal: child.signalCode } : null), w);
  } catch (err) {
    if (!ended(child)) child.kill('SIGKILL');
    throw err;
  }
}
