// An error repeated in a loop is logged once with a count (house rule 9): the first of a kind whole,
// then one line per window saying how many more, nothing once it stops.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RepeatedErrorLog, type EngineLog } from '../../src/queue/log.js';

function recorder(): EngineLog & { lines: Array<[Record<string, unknown>, string]> } {
  const lines: Array<[Record<string, unknown>, string]> = [];
  const error = (obj: object, msg?: string) => void lines.push([obj as Record<string, unknown>, msg ?? '']);
  return { lines, debug: () => {}, info: () => {}, warn: () => {}, error };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('RepeatedErrorLog', () => {
  it('writes the first whole, counts the rest, one line per window, and forgets a kind after a quiet window', () => {
    const log = recorder();
    const r = new RepeatedErrorLog(log, 60_000);
    const err = new Error('the store went away');
    for (let i = 0; i < 1_000; i++) r.error('claim:x', { err, run: i }, 'claiming runs failed');
    expect(log.lines).toEqual([[{ err, run: 0 }, 'claiming runs failed']]);
    vi.advanceTimersByTime(60_000);
    expect(log.lines[1]).toEqual([{ run: 999, error: 'the store went away', repeated: 999 }, 'claiming runs failed (the same error 999 more times within 60 s)']);
    r.error('claim:x', { err, run: 1000 }, 'claiming runs failed');
    vi.advanceTimersByTime(60_000);
    expect(log.lines[2]).toEqual([{ run: 1000, error: 'the store went away', repeated: 1 }, 'claiming runs failed (the same error 1 more time within 60 s)']);
    vi.advanceTimersByTime(60_000); // a quiet window: the kind is forgotten
    expect(log.lines).toHaveLength(3);
    r.error('claim:x', { err, run: 1001 }, 'claiming runs failed');
    expect(log.lines[3]).toEqual([{ err, run: 1001 }, 'claiming runs failed']);
  });

  it('keeps kinds apart, flushes counts at shutdown, and writes everything once it tracks too many kinds', () => {
    const log = recorder();
    const r = new RepeatedErrorLog(log, 60_000, 2);
    r.error('a', {}, 'A');
    r.error('b', {}, 'B');
    r.error('a', {}, 'A');
    r.error('c', {}, 'C');
    r.error('c', {}, 'C');
    expect(log.lines.map(([, m]) => m)).toEqual(['A', 'B', 'C', 'C']);
    r.flush();
    expect(log.lines.map(([, m]) => m)).toEqual(['A', 'B', 'C', 'C', 'A (the same error 1 more time within 60 s)']);
    vi.advanceTimersByTime(120_000);
    expect(log.lines).toHaveLength(5);
  });
});
