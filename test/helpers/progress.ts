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

/**
 * CPU time so far in clock ticks of the process and everything under it (a shell wrapper's
 * server counts): each one's own and its waited-for children's. 0 without /proc (not Linux): the
 * output alone tells progress there.
 */
export function cpuTicks(pid: number | undefined, depth = 0): number {
  if (pid === undefined || depth > 8) return 0;
  let ticks = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "pid (comm) ": utime is field 14, stime 15, cutime 16, cstime 17; comm may hold spaces.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    for (const c of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) ticks += cpuTicks(Number(c), depth + 1);
  } catch {
    /* gone, or no /proc */
  }
  return ticks;
}

/** Tracks whether the children made progress since the last look, and how long they have not. */
class Progress {
  private mark: string;
  private since = performance.now();
  private looked = performance.now();

  constructor(
    private readonly children: ChildProcess[],
    private readonly output: () => string,
  ) {
    this.mark = this.now();
  }

  private now(): string {
    return `${this.output().length}:${this.children.reduce((n, c) => n + cpuTicks(c.pid), 0)}`;
  }

  /** Milliseconds since a child last printed something or used CPU time (looked at every 100 ms at most). */
  idleFor(): number {
    if (performance.now() - this.looked >= 100) {
      this.looked = performance.now();
      const mark = this.now();
      if (mark !== this.mark) {
        this.mark = mark;
        this.since = performance.now();
      }
    }
    return performance.now() - this.since;
  }
}

const ended = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/**
 * Resolves with the first truthy answer of `ready` (polled; it must bound its own waits, e.g. a
 * fetch with a timeout). Fails with the output when the child (any of them) exits first, or when
 * none has made progress for idleMs.
 */
export async function untilReady<T>(
  child: ChildProcess | ChildProcess[],
  ready: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  w: ProgressWait,
): Promise<T> {
  const children = Array.isArray(child) ? child : [child];
  const progress = new Progress(children, w.output);
  const idleMs = w.idleMs ?? IDLE_MS;
  for (;;) {
    const answer = await ready();
    if (answer) return answer;
    const gone = children.find(ended);
    if (gone) {
      throw new Error(`waiting for ${w.what}: process ${gone.pid} exited first (code ${gone.exitCode}, signal ${gone.signalCode}); output:\n${w.output()}`);
    }
    if (progress.idleFor() > idleMs) {
      throw new Error(`waiting for ${w.what}: no progress for ${idleMs / 1000} s (no output, no CPU time); output:\n${w.output()}`);
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
