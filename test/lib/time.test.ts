// iso() formats by hand for 1970-9999 and must equal toISOString exactly, everywhere.
import { describe, expect, it } from 'vitest';
import { iso, isoOrNull } from '../../src/lib/time.js';

const DAY = 86_400_000;
const YEAR_10000 = Date.UTC(10000, 0, 1);

describe('iso', () => {
  it('equals toISOString on the edges of days, months, leap years and its own range', () => {
    const edges = [
      0, 1, 999, 1000, DAY - 1, DAY, Date.UTC(1999, 11, 31, 23, 59, 59, 999), Date.UTC(2000, 1, 29), Date.UTC(2000, 2, 1) - 1,
      Date.UTC(2100, 1, 28, 12), Date.UTC(2100, 2, 1), Date.UTC(2024, 1, 29, 0, 0, 0, 1), Date.UTC(2026, 10, 27, 21, 49, 5, 123),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999), YEAR_10000 - 1,
    ];
    for (const t of edges) expect(iso(new Date(t)), String(t)).toBe(new Date(t).toISOString());
  });

  it('equals toISOString on every day from 1970 to 9999, at a different time of day each', () => {
    let mismatches = 0;
    for (let day = 0, t = 0; t < YEAR_10000; day++, t = day * DAY) {
      const v = t + ((day * 7_919_993) % DAY);
      if (v < YEAR_10000 && iso(new Date(v)) !== new Date(v).toISOString()) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('equals toISOString on 200,000 random instants', () => {
    let mismatches = 0;
    for (let i = 0; i < 200_000; i++) {
      const t = Math.floor(Math.random() * YEAR_10000);
      if (iso(new Date(t)) !== new Date(t).toISOString()) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('leaves years before 1970 and from 10000 on to toISOString', () => {
    for (const t of [-1, -DAY, Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(1, 0, 1), Date.UTC(-5, 5, 5), YEAR_10000, 8.64e15, -8.64e15]) {
      expect(iso(new Date(t))).toBe(new Date(t).toISOString());
    }
    expect(iso(YEAR_10000)).toBe('+010000-01-01T00:00:00.000Z');
  });

  it('takes a string or a number, and throws on an invalid date as toISOString does', () => {
    expect(iso('2026-11-27T21:49:05.123Z')).toBe('2026-11-27T21:49:05.123Z');
    expect(iso('2026-11-27 21:49:05.1234+00')).toBe('2026-11-27T21:49:05.123Z');
    expect(iso(1_700_000_000_000)).toBe(new Date(1_700_000_000_000).toISOString());
    expect(() => iso('not a date')).toThrow(RangeError);
    expect(() => iso(new Date(NaN))).toThrow(RangeError);
  });

  it('isoOrNull passes null and undefined through', () => {
    expect(isoOrNull(null)).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
    expect(isoOrNull(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});
