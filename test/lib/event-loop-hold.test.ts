// holdEventLoop keeps one handle on the event loop until released, so start-up never finds the
// loop empty (where Node would wait for V8's background compilation: lib/event-loop-hold.ts), and
// gives it back so a finished command's process exits.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { holdEventLoop } from '../../src/lib/event-loop-hold.js';
import { untilExit } from '../helpers/progress.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('holdEventLoop', () => {
  it('holds one timer until released; releasing twice is harmless', () => {
    const before = timers();
    const release = holdEventLoop();
    expect(timers()).toBe(before + 1);
    release();
    expect(timers()).toBe(before);
    release();
    expect(timers()).toBe(before);
  });

  it('keeps a process alive while held, and lets it exit once released', async () => {
    // The child's only pending work after the hold is released is nothing: it must exit at once.
    const script = `
      import { holdEventLoop } from ${JSON.stringify(path.join(ROOT, 'src/lib/event-loop-hold.ts'))};
      const release = holdEventLoop();
      let ticks = 0;
      const tick = () => { if (++ticks < 3) setImmediate(tick); else { release(); console.log('released after', ticks); } };
      setImmediate(tick);
      process.on('exit', () => console.log('exit'));
    `;
    // A child that hangs makes no progress: the wait fails then (test/helpers/progress.ts).
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const { code } = await untilExit(child, { what: 'the child to exit once the hold is released', output: () => stdout + stderr });
    expect(code, stderr).toBe(0);
    expect(stdout.trim().split('\n')).toEqual(['released after 3', 'exit']);
  });
});
