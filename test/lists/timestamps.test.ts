// Timestamps read from PostgreSQL keep millisecond precision through the fast UTC parser, and
// odd values fall back to the generic parser.
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/postgres.js';
import { freshDb } from '../helpers/db.js';

describe('timestamptz parsing', () => {
  it.each([
    ['2026-11-25 23:43:59.472+00', '2026-11-25T23:43:59.472Z'],
    ['2026-11-25 23:43:59.47+00', '2026-11-25T23:43:59.470Z'],
    ['2026-11-25 23:43:59.4+00', '2026-11-25T23:43:59.400Z'],
    ['2026-11-25 23:43:59+00', '2026-11-25T23:43:59.000Z'],
    ['2026-11-25 23:43:59.123456+00', '2026-11-25T23:43:59.123Z'],
    ['2026-01-01 00:00:00+02', '2025-12-31T22:00:00.000Z'],
    ['2026-11-25 23:43:59.5+05:30', '2026-11-25T18:13:59.500Z'],
  ])('%s → %s', (raw, iso) => {
    expect(parseTimestamptz(raw).toISOString()).toBe(iso);
  });

  it('round-trips through the store at millisecond precision', async () => {
    const t = await freshDb();
    try {
      for (const iso of ['2026-11-25T23:43:59.472Z', '2026-02-28T00:00:00.000Z', '1999-12-31T23:59:59.999Z']) {
        const [r] = await t.db.query<{ at: Date }>('select $1::timestamptz(3) as at', [iso]);
        expect(r.at.toISOString()).toBe(iso);
      }
    } finally {
      await t.close();
    }
  });
});
