// The process users run, under load: `switchboard serve` started as `npm start` starts it
// (bin/switchboard.js with the node flags of its first line, API and engine in one process, the
// default LOG_LEVEL), its stdout and
// stderr appended to a log file as an operator's process manager would collect them. The bench
// picks the port itself so it can time start → first 200 from /healthz, and reads the process's
// resident memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './child.js';

export interface ServeOptions {
  store: 'pglite' | 'postgres';
  /** PGlite: the seeded data directory. */
  dataDir?: string;
  /** PostgreSQL: the seeded database (passed in the environment, never argv). */
  databaseUrl?: string;
  rateLimit: 'memory' | 'postgres' | 'redis';
  redisUrl?: string;
  /** SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS (unset: the default). */
  rateLimitTimeoutMs?: number | null;
  /** Where the process's stdout and stderr go (appended). */
  logFile: string;
  /** --cpu-prof into this directory (the whole life of the process: start, warm-up, the case). */
  cpuProfDir?: string | null;
  label: string;
  readyTimeoutMs?: number;
}

export interface ServeChild {
  pid: number;
  port: number;
  /** Milliseconds from spawn to the first 200 of GET /healthz. */
  startMs: number;
  /** Resident set size now, in MiB (null off Linux). */
  rssMiB(): number | null;
  stop(): Promise<number | null>;
}

const BIN = path.join(ROOT, 'bin', 'switchboard.js');

/**
 * The node flags `npm start` runs with: those of the bin's `#!/usr/bin/env -S node …` line. The
 * bench spawns node itself (to add --cpu-prof), so it reads them from there rather than retyping.
 */
export const BIN_NODE_FLAGS: readonly string[] = (() => {
  const first = fs.readFileSync(BIN, 'utf8').split('\n', 1)[0];
  const m = /^#!\/usr\/bin\/env(?: -S)? node(.*)$/.exec(first);
  if (!m) throw new Error(`bench: cannot read the node flags of ${BIN}'s first line: ${first}`);
  return m[1].split(' ').filter(Boolean);
})();

/**
 * Extra node flags for the serve processes, for experiments only (BENCH_NODE_FLAGS="--single-threaded"):
 * the process users run has only BIN_NODE_FLAGS, and the report says when a run used more.
 */
export const SERVE_NODE_FLAGS: readonly string[] = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

const live = new Set<ChildProcess>();

export function killAllServes(): void {
  for (const c of live) if (c.pid) process.kill(c.pid, 'SIGKILL');
}

/** A port the kernel had free a moment ago (bound and released on loopback). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (addr && typeof addr !== 'string' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

export async function startServe(o: ServeOptions): Promise<ServeChild> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    HOST: '127.0.0.1',
    PORT: String(port),
    SWITCHBOARD_RATE_LIMIT_STORE: o.rateLimit,
  };
  if (o.store === 'pglite') env.SWITCHBOARD_DATA_DIR = o.dataDir!;
  else env.DATABASE_URL = o.databaseUrl!;
  if (o.rateLimit === 'redis') env.REDIS_URL = o.redisUrl ?? 'redis://127.0.0.1:6379';
  if (o.rateLimitTimeoutMs) env.SWITCHBOARD_RATE_LIMIT_TIMEOUT_MS = String(o.rateLimitTimeoutMs);
  const nodeArgs = [...BIN_NODE_FLAGS, ...(o.cpuProfDir ? [`--cpu-prof`, `--cpu-prof-dir=${o.cpuProfDir}`] : []), ...SERVE_NODE_FLAGS];
  const out = fs.openSync(o.logFile, 'a');
  const t0 = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  live.add(child);
  child.once('exit', () => live.delete(child));

  // Polled every 10 ms: the figure is the operator's "how long until it answers".
  const deadline = t0 + (o.readyTimeoutMs ?? 60_000);
  let startMs = -1;
  while (startMs < 0) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${o.label}: switchboard serve exited before answering (code ${child.exitCode}); see ${o.logFile}`);
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${o.label}: /healthz did not answer within ${o.readyTimeoutMs ?? 60_000} ms; see ${o.logFile}`);
    }
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) });
      if (r.status === 200) startMs = Math.round(performance.now() - t0);
      await r.arrayBuffer();
    } catch {
      /* not listening yet */
    }
    if (startMs < 0) await new Promise((r) => setTimeout(r, 10));
  }
  return {
    pid: child.pid!,
    port,
    startMs,
    rssMiB: () => rssMiB(child.pid!),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      // A clean shutdown finishes in-flight work and writes the CPU profile; past 30 s it is stuck.
      if (!(await exited(child, 30_000))) {
        child.kill('SIGKILL');
        await exited(child, 5_000);
      }
      return child.exitCode;
    },
  };
}
