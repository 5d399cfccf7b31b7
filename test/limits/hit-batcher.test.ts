// Group commit of rate-limit hits: concurrent hits of one key go to the store as one "+ n"
// statement, and each still gets a count of its own, as if sent one by one.
import { describe, expect, it } from 'vitest';
import { HitBatcher } from '../../src/limits/hit-batcher.js';

/** A store whose statements the test answers by hand; it counts like rate_counters does. */
function heldStore() {
  const counts = new Map<string, { start: number; count: number }>();
  const calls: Array<{ key: string; n: number; start: number; answer: () => void; fail: (e: Error) => void }> = [];
  const add = (key: string, n: number, start: number) =>
    new Promise<number>((resolve, reject) => {
      calls.push({
        key,
        n,
        start,
        answer: () => {
          const cur = counts.get(key);
          const next = cur && cur.start >= start ? { start: cur.start, count: cur.count + n } : { start, count: n };
          counts.set(key, next);
          resolve(next.count);
        },
        fail: reject,
      });
    });
  return { add, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('HitBatcher', () => {
  it('a lone hit goes at once, alone', async () => {
    const s = heldStore();
    const b = new HitBatcher(s.add);
    const p = b.hit('k', 0);
    expect(s.calls.map((c) => c.n)).toEqual([1]);
    s.calls[0].answer();
    expect(await p).toBe(1);
    await tick();
    expect(b.activeKeys).toBe(0);
  });

  it('hits arriving while a statement is in flight go as one statement, each with its own count', async () => {
    const s = heldStore();
    const b = new HitBatcher(s.add);
    const first = b.hit('k', 0);
    const rest = Array.from({ length: 9 }, () => b.hit('k', 0));
    expect(s.calls).toHaveLength(1); // the nine wait for the first statement
    s.calls[0].answer();
    await tick();
    expect(s.calls.map((c) => c.n)).toEqual([1, 9]);
    s.calls[1].answer();
    const counts = [await first, ...(await Promise.all(rest))];
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('keys are batched apart, and a batch straddling a minute counts in the newer window', async () => {
    const s = heldStore();
    const b = new HitBatcher(s.add);
    const a1 = b.hit('a', 0);
    const other = b.hit('b', 0);
    const late = [b.hit('a', 0), b.hit('a', 60_000)];
    expect(s.calls.map((c) => [c.key, c.n])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    s.calls[0].answer();
    s.calls[1].answer();
    await tick();
    expect(s.calls[2]).toMatchObject({ key: 'a', n: 2, start: 60_000 });
    s.calls[2].answer();
    expect([await a1, await other, ...(await Promise.all(late))]).toEqual([1, 1, 1, 2]);
  });

  it('a failed statement fails each hit of its batch, and the next batch still goes', async () => {
    const s = heldStore();
    const b = new HitBatcher(s.add);
    const first = b.hit('k', 0);
    const second = b.hit('k', 0);
    s.calls[0].fail(new Error('store down'));
    await expect(first).rejects.toThrow('store down');
    await tick();
    s.calls[1].answer();
    expect(await second).toBe(1);
  });
});
