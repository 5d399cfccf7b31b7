// Parent side of bench/server.ts: spawn a server child, wait for its ready line, stop it by pid.
// Every wait is bounded, so a child that hangs cannot hang the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SeedInfo } from './seed.js';

export const READY_PREFIX = 'BENCH_READY ';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerChild {
  pid: number;
  port: number;
  seed: SeedInfo | null;
  /** Milliseconds from spawn to ready (includes seeding when asked). */
  startMs: number;
  stop(): Promise<void>;
}

export interface ChildOptions {
  args: string[];
  env?: Record<string, string>;
  readyTimeoutMs: number;
  /** Directory for --cpu-prof profiles (a subdirectory per label); null = no profile. */
  profileDir: string | null;
  label: string;
}

const live = new Set<ChildProcess>();

/** Kills every child still running (used by the watchdog and on a fatal error). */
export function killAllChildren(): void {
  for (const c of live) if (c.pid) process.kill(c.pid, 'SIGKILL');
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

export async function startServer(o: ChildOptions): Promise<ServerChild> {
  // A directory per child and V8's default file names: tsx runs its loader in a worker thread,
  // which writes a profile of its own, and a fixed --cpu-prof-name would let it overwrite the main one.
  const node = o.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(o.profileDir, o.label)}`] : [];
  const t0 = performance.now();
  // stdin is a pipe the child watches: if this process dies, the pipe closes and the child exits.
  const child = spawn(process.execPath, [...node, '--import', 'tsx', path.join('bench', 'server.ts'), ...o.args], {
    cwd: ROOT,
    env: { ...process.env, ...o.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));

  const ready = await new Promise<{ port: number; seed: SeedInfo | null }>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${o.label}: not ready after ${o.readyTimeoutMs} ms`));
    }, o.readyTimeoutMs);
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith(READY_PREFIX)) {
        process.stderr.write(`[${o.label}] ${line}\n`);
        return;
      }
      clearTimeout(timer);
      resolve(JSON.parse(line.slice(READY_PREFIX.length)));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${o.label}: exited before ready (code ${code}, signal ${signal})`));
    });
  }).catch(async (err) => {
    if (child.pid) process.kill(child.pid, 'SIGKILL');
    await exited(child, 5_000);
    throw err;
  });

  return {
    pid: child.pid!,
    port: ready.port,
    seed: ready.seed,
    startMs: Math.round(performance.now() - t0),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid!, 'SIGTERM');
      // Closing PGlite and writing a CPU profile take a moment; past 20 s it is stuck.
      if (!(await exited(child, 20_000))) {
        process.kill(child.pid!, 'SIGKILL');
        await exited(child, 5_000);
      }
    },
  };
}
