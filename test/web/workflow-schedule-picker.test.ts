// The trigger's schedule picker: every day / week / month at a time reads back from the cron
// expression it writes; anything else is a custom expression, kept as typed.
import { describe, expect, it } from 'vitest';
import { cronOf, DEFAULT_PICK, pickOf, pickWords } from '../../web/src/pages/workflow-builder/schedule-picker';

describe('schedule picker', () => {
  it('writes the simple forms and reads them back', () => {
    const picks = [
      { ...DEFAULT_PICK, frequency: 'daily' as const, time: '07:30' },
      { ...DEFAULT_PICK, frequency: 'weekly' as const, time: '09:00', weekday: 1 },
      { ...DEFAULT_PICK, frequency: 'monthly' as const, time: '18:05', monthday: 28 },
    ];
    expect(picks.map(cronOf)).toEqual(['30 7 * * *', '0 9 * * 1', '5 18 28 * *']);
    for (const p of picks) expect(pickOf(cronOf(p))).toEqual(p);
    expect(pickWords(pickOf('0 9 * * 1'))).toBe('Every Monday at 09:00');
  });

  it('reads anything else as custom, the expression kept', () => {
    for (const cron of ['0 9 * * 1-5', '*/15 * * * *', '0 9 29 * *', '0 0 9 * * 1', 'nonsense']) {
      expect(pickOf(cron)).toMatchObject({ frequency: 'custom', cron });
      expect(cronOf(pickOf(cron))).toBe(cron);
    }
    expect(pickOf(null)).toMatchObject({ frequency: 'custom', cron: '' });
  });
});
