// Real server processes for tests that need more than one process (shared limits, crashes).
// They run the CLI from source through tsx; only loopback addresses.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

export function runCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/entry.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A child with everything it prints (stdout and stderr, in arrival order) collected. */
export function captured(child: ChildProcess): { child: ChildProcess; output: () => string } {
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  return { child, output: () => out };
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Starts `serve` on a kernel-chosen port and resolves once its banner names the address. */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000, role: 'api' | 'all' = 'api'): Promise<ServerProcess> {
  const child = runCli(['serve', '--role', role], { HOST: '127.0.0.1', PORT: '0', ...env });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${out}`)), timeoutMs);
    const check = () => {
      const m = /listening on (https?:\/\/[^\s;]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return {
    child,
    baseUrl,
    output: () => out,
    stop: async () => {
      child.kill('SIGTERM');
      return exited(child);
    },
  };
}

/** Waits until the current 60 s rate window has at least `ms` left, so a test's hits share one window. */
export async function awaitFreshWindow(ms = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((r) => setTimeout(r, left + 50));
}
