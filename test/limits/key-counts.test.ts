// The combination rule a fallback answers with: this process's hits in the window plus what the
// store had counted from elsewhere as of its latest answer, never lowered by a late answer.
import { describe, expect, it } from 'vitest';
import { KeyCounts } from '../../src/limits/key-counts.js';

const MINUTE = 60_000;

describe('KeyCounts', () => {
  it('learns the hits from elsewhere from each answer, and adds this process\'s hits since', () => {
    const k = new KeyCounts(() => 1_000 * MINUTE + 5);
    const a = k.count('k:x', true);
    expect(k.answered(a, 100)).toBe(100); // 99 from elsewhere, then this one
    const b = k.count('k:x', true); // sent, not answered yet
    const c = k.count('k:x', false); // not sent (the store is degraded)
    expect(k.estimate(b).count).toBe(101);
    expect(k.estimate(c).count).toBe(102);
    expect(k.countOf('k:x').count).toBe(102);
    // b's answer comes late and says another process counted 5 more meanwhile.
    expect(k.answered(b, 106)).toBe(106);
    expect(k.estimate(k.count('k:x', false)).count).toBe(108); // 104 from elsewhere + 4 of ours
  });

  it('a late answer lower than what was known lowers nothing', () => {
    const k = new KeyCounts(() => 1_000 * MINUTE + 5);
    const a = k.count('k:x', true);
    const b = k.count('k:x', true);
    expect(k.answered(b, 50)).toBe(50); // 48 from elsewhere
    expect(k.answered(a, 3)).toBe(49); // out of order, or a store that lost its count: a's place, 48 + 1
    expect(k.countOf('k:x').count).toBe(50);
    const c = k.count('k:x', true);
    expect(k.answered(c, 1)).toBe(51); // the store restarted empty: 48 + our 3
  });

  it('keeps the current window only: a new window starts each key again, and past keys are dropped', () => {
    let now = 1_000 * MINUTE + 5;
    const k = new KeyCounts(() => now);
    for (let i = 0; i < 50; i++) k.answered(k.count(`k:${i}`, true), 10);
    expect(k.size).toBe(50);
    const late = k.count('k:0', true);
    now += MINUTE;
    expect(k.estimate(k.count('k:0', false)).count).toBe(1);
    expect(k.size).toBe(1);
    // A late answer of the past window changes nothing in the new one.
    k.answered(late, 500);
    expect(k.countOf('k:0').count).toBe(1);
  });
});
