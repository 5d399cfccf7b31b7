// Real server processes for tests that need more than one process (shared limits, crashes).
// They run the CLI from source through tsx; only loopback addresses.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { untilExit, untilReady } from './progress.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** SIGTERM and wait for the exit code (while the process makes progress: progress.ts). */
  stop(): Promise<number | null>;
}

export function runCli(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/entry.ts'), ...args], {
    cwd: ROOT,
    // A child on a loaded test machine lags by seconds now and then: it never sheds requests for
    // that unless a test asks (load shedding has its own tests).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', SWITCHBOARD_SHED_EVENT_LOOP_DELAY_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs a CLI command to its end: its exit code and what it printed on each stream. */
export function cliResult(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = runCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += String(d)));
    child.stderr!.on('data', (d) => (stderr += String(d)));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
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

/**
 * Starts `serve` on a kernel-chosen port and resolves once its banner names the address: waits as
 * long as the process makes progress (progress.ts), fails with its output if it exits or stalls.
 */
export async function startServer(env: Record<string, string>, role: 'api' | 'all' = 'api'): Promise<ServerProcess> {
  const { child, output } = captured(runCli(['serve', '--role', role], { HOST: '127.0.0.1', PORT: '0', ...env }));
  const baseUrl = await bannerAddress(child, output).catch((err: unknown) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    throw err;
  });
  return {
    child,
    baseUrl,
    output,
    stop: async () => {
      child.kill('SIGTERM');
      return (await untilExit(child, { what: `serve (pid ${child.pid}) to exit after SIGTERM`, output })).code;
    },
  };
}

/** The address in serve's banner ("listening on http://…"), once printed; waited for while the process makes progress. */
export function bannerAddress(child: ChildProcess, output: () => string): Promise<string> {
  return untilReady(child, () => /listening on (https?:\/\/[^\s;]+)/.exec(output())?.[1], { what: 'serve to print its address', output });
}

/** Waits until the current 60 s rate window has at least `ms` left, so a test's hits share one window. */
export async function awaitFreshWindow(ms = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((r) => setTimeout(r, left + 50));
}
