// The backoff every worker shares (runs, sends, LLM calls) and the error line a run shows.
import { describe, expect, it } from 'vitest';
import { backoffMs, errorLine, isPermanentFailure, PermanentFailure } from '../../src/lib/retry.js';
import { TemplateError } from '../../src/domain/template.js';

describe('backoffMs', () => {
  it('doubles from the base with equal jitter (half fixed, half random), capped', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1_000, 60_000, low))).toEqual([500, 1_000, 2_000, 4_000]);
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1_000, 60_000, high))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(30, 1_000, 60_000, high)).toBe(60_000);
    expect(backoffMs(30, 1_000, 60_000, low)).toBe(30_000);
    expect(backoffMs(2000, 1_000, 60_000, high)).toBe(60_000); // 2^1999 is Infinity: still the cap
    expect(backoffMs(0, 1_000, 60_000, high)).toBe(1_000);
    for (let i = 0; i < 1_000; i++) {
      const d = backoffMs(3, 100, Infinity);
      expect(d).toBeGreaterThanOrEqual(200);
      expect(d).toBeLessThanOrEqual(400);
    }
  });
});

describe('errorLine', () => {
  it('is the message on one line, cut short; never empty', () => {
    expect(errorLine(new Error('a\n  b\tc'))).toBe('a b c');
    expect(errorLine('plain')).toBe('plain');
    expect(errorLine(new Error(''))).toBe('Error');
    expect(errorLine(new Error('x'.repeat(400)))).toHaveLength(300);
    expect(errorLine(new Error('x'.repeat(400))).endsWith('…')).toBe(true);
    expect(errorLine(undefined)).toBe('undefined');
  });
});

describe('PermanentFailure', () => {
  it('marks an error that would fail the same way again; a template error is one', () => {
    expect(isPermanentFailure(new PermanentFailure('no'))).toBe(true);
    expect(isPermanentFailure(new TemplateError('the template has a "{{"'))).toBe(true);
    expect(isPermanentFailure(new Error('connection reset'))).toBe(false);
    expect(isPermanentFailure('no')).toBe(false);
  });
});
