// releaseStartupGarbage runs one full collection without leaving `gc` exposed to anything else.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { releaseStartupGarbage } from '../../src/lib/startup-garbage.js';

describe('releaseStartupGarbage', () => {
  it('collects: an object nothing references is gone right after the call', async () => {
    const ref = (() => new WeakRef({ payload: 'x'.repeat(1024) }))();
    expect(ref.deref() !== undefined).toBe(true); // nothing has collected it yet (no reference kept by expect)
    // A WeakRef's target is kept until the end of the job that made or read it: let that job end.
    await new Promise((r) => setImmediate(r));
    releaseStartupGarbage();
    expect(ref.deref() === undefined).toBe(true);
  });

  it('leaves no gc behind: not in this context, not in a new one', () => {
    releaseStartupGarbage();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
