// parseUtcTimestamp: the fast path gives the Date the drivers' own parsers give, for every
// fractional precision PostgreSQL prints; anything off that path goes to the fallback.
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { parseUtcTimestamp } from '../../src/db/timestamps.js';

const driver = pg.types.getTypeParser(1184, 'text') as (v: string) => Date;
const noFallback = (v: string): Date => {
  throw new Error(`fell back on ${v}`);
};

/** PostgreSQL's text form of an instant, with `n` fractional digits taken from `micros` (0 to 6). */
function pgText(d: Date, micros: number, n: number): string {
  const base = d.toISOString().slice(0, 19).replace('T', ' ');
  const frac = String(micros).padStart(6, '0').slice(0, n);
  return `${base}${n ? `.${frac}` : ''}+00`;
}

describe('parseUtcTimestamp', () => {
  it('agrees with pg’s own parser on thousands of instants, every fractional precision', () => {
    const fractions = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      const d = new Date(Date.UTC(1970 + (i % 130), i % 12, 1 + (i % 28), i % 24, (i * 7) % 60, (i * 13) % 60));
      const text = pgText(d, (i * 123_457) % 1_000_000, i % 7);
      fractions.add(text.length);
      expect(parseUtcTimestamp(text, noFallback).getTime(), text).toBe(driver(text).getTime());
    }
    // 22 (no fraction) and 24 to 29 characters (1 to 6 digits) all came up.
    expect([...fractions].sort()).toEqual([22, 24, 25, 26, 27, 28, 29]);
    expect(parseUtcTimestamp('2026-11-26 06:09:08.1239+00', noFallback).toISOString()).toBe('2026-11-26T06:09:08.123Z');
    expect(parseUtcTimestamp('2026-11-26 06:09:08.5+00', noFallback).toISOString()).toBe('2026-11-26T06:09:08.500Z');
  });

  it('hands anything else to the fallback', () => {
    const seen: string[] = [];
    const fallback = (v: string) => {
      seen.push(v);
      return new Date(0);
    };
    const others = [
      'infinity',
      '-infinity',
      '2026-11-26 06:09:08+01',
      '2026-11-26 06:09:08+05:30',
      '0044-03-15 12:00:00+00 BC',
      '12026-11-26 06:09:08+00',
      '2026-11-26 06:09:08.+00',
      '2026-11-26T06:09:08+00',
      '2026-11-26 06:09:0x+00',
      '2026-11-26 06:09:08,123+00',
      '2026-11-26 06:09:08.1234567+00',
    ];
    for (const v of others) parseUtcTimestamp(v, fallback);
    expect(seen).toEqual(others);
  });
});
