// The progress-based waits on child processes (progress.ts): a silent child that keeps computing
// is waited for past the idle window, a child that stalls fails after it, and one that exits
// first fails at once, each with what it printed.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { captured } from './process.js';
import { untilExit, untilReady } from './progress.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function node(script: string): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return captured(child);
}

describe('waits on a child process set by its progress', () => {
  it.runIf(process.platform === 'linux')('waits past the idle window for a child that prints nothing but keeps computing', { timeout: 300_000 }, async () => {
    // Busy and silent for longer than the idle window, in CPU time (a slow machine's start; on a
    // loaded one, many times that in wall time): only its CPU time, read from /proc, says it is alive.
    const p = node(`const u = () => process.cpuUsage().user / 1000; while (u() < 1500) {} console.log('ready')`);
    const t0 = performance.now();
    await untilReady(p.child, () => p.output().includes('ready'), { what: 'the busy child', output: p.output, idleMs: 1_000 });
    expect(performance.now() - t0).toBeGreaterThan(1_000);
  });

  it('fails after the idle window for a child that stalls, with what it printed, and untilExit kills it', async () => {
    const p = node(`console.log('started, now stuck'); setInterval(() => {}, 60_000)`);
    const t0 = performance.now();
    const err = await untilExit(p.child, { what: 'the stuck child to exit', output: p.output, idleMs: 1_000 }).catch((e: Error) => e);
    expect(String(err)).toMatch(/waiting for the stuck child to exit: no progress for 1 s[^]*started, now stuck/);
    expect(performance.now() - t0).toBeLessThan(20_000);
    await untilReady(p.child, () => p.child.signalCode === 'SIGKILL', { what: 'the kill', output: p.output });
  });

  it('fails at once when the child exits before it is ready', async () => {
    const p = node(`console.error('cannot start: no such thing'); process.exit(3)`);
    const err = await untilReady(p.child, () => false, { what: 'the child to be ready', output: p.output }).catch((e: Error) => e);
    expect(String(err)).toMatch(/waiting for the child to be ready: process \d+ exited first \(code 3, signal null\)[^]*cannot start: no such thing/);
  });
});
