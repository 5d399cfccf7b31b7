// Parent side of bench/server.ts: spawn a server child, wait for its ready line, stop it by pid.
// Every wait is bounded, so a child that hangs cannot hang the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SeedInfo } from './seed.js';

export const READY_PREFIX = 'BENCH_READY ';
export const DONE_PREFIX = 'BENCH_DONE ';
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerChild {
  pid: number;
  port: number;
  seed: SeedInfo | null;
  /** Milliseconds from spawn to ready (includes seeding when asked). */
  startMs: number;
  /** Sends a command line to the child and waits (bounded) for its BENCH_DONE answer. */
  command(line: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ChildOptions {
  args: string[];
  env?: Record<string, string>;
  readyTimeoutMs: number;
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
  const t0 = performance.now();
  // stdin is a pipe the child watches: if this process dies, the pipe closes and the child exits.
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'server.ts'), ...o.args], {
    cwd: ROOT,
    env: { ...process.env, ...o.env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  live.add(child);
  child.once('exit', () => live.delete(child));

  // Answers to command() calls, in order (the child handles one command at a time).
  const waiting: Array<(answer: string) => void> = [];
  const lines = readline.createInterface({ input: child.stdout! });
  const ready = await new Promise<{ port: number; seed: SeedInfo | null }>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${o.label}: not ready after ${o.readyTimeoutMs} ms`));
    }, o.readyTimeoutMs);
    lines.on('line', (line) => {
      if (line.startsWith(DONE_PREFIX)) {
        waiting.shift()?.(line.slice(DONE_PREFIX.length));
        return;
      }
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
    command: (line, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${o.label}: no answer to "${line}" in ${timeoutMs} ms`)), timeoutMs);
        waiting.push((answer) => {
          clearTimeout(timer);
          if (answer.includes(' failed:')) reject(new Error(`${o.label}: ${answer}`));
          else resolve();
        });
        child.stdin!.write(`${line}\n`);
      }),
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
