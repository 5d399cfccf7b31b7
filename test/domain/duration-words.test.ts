// A wait's ISO 8601 duration in words: every unit, singular and plural, combined; anything else as written.
import { describe, expect, it } from 'vitest';
import { durationWords } from '../../src/domain/duration-words.js';
import { AUTOMATION_STARTERS } from '../../src/domain/starters.js';

describe('durationWords', () => {
  it.each([
    ['PT1M', '1 minute'],
    ['PT90M', '90 minutes'],
    ['PT1H', '1 hour'],
    ['P2D', '2 days'],
    ['P1W', '1 week'],
    ['P1DT2H', '1 day 2 hours'],
    ['P1Y2M', '1 year 2 months'],
    ['PT30S', '30 seconds'],
  ])('%s → %s', (iso, words) => {
    expect(durationWords(iso)).toBe(words);
  });

  it('returns what is not a duration as written', () => {
    for (const v of ['', 'P', 'PT', '2 days', 'p1d']) expect(durationWords(v)).toBe(v);
  });

  it('names the starters’ wait steps in words, never in ISO 8601', () => {
    const waits = AUTOMATION_STARTERS.flatMap((s) => s.definition.steps.filter((st) => st.type === 'wait'));
    expect(waits.length).toBeGreaterThan(0);
    for (const w of waits) expect(w.name).toMatch(/^Wait \d+ (minute|hour|day|week)s?$/);
  });
});
