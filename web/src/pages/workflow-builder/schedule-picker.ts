// The trigger's schedule picker and the cron expression it stands for: "every day at 09:00" is
// `0 9 * * *`, "every week on Monday at 09:00" `0 9 * * 1`, "every month on day 1 at 09:00"
// `0 9 1 * *`. Anything else the picker cannot say is an advanced (custom) expression, edited as
// text. Pure, so the round trip is unit-tested; the server stays the judge of what can run.

export type Frequency = 'daily' | 'weekly' | 'monthly' | 'custom';

export interface Picked {
  frequency: Frequency;
  /** HH:MM, 24-hour. */
  time: string;
  /** 0 (Sunday) to 6. */
  weekday: number;
  /** 1 to 28: every month has one. */
  monthday: number;
  /** The expression itself, for custom. */
  cron: string;
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export const LAST_MONTHDAY = 28;

export const DEFAULT_PICK: Picked = { frequency: 'daily', time: '09:00', weekday: 1, monthday: 1, cron: '' };

const pad = (n: number) => String(n).padStart(2, '0');
const num = (s: string | undefined, max: number, min = 0): number | null => (s !== undefined && /^\d{1,2}$/.test(s) && +s >= min && +s <= max ? +s : null);

/** The cron expression for a pick (custom: the text as typed, trimmed). */
export function cronOf(p: Picked): string {
  if (p.frequency === 'custom') return p.cron.trim();
  const [h = '9', m = '0'] = p.time.split(':');
  const at = `${Number(m)} ${Number(h)}`;
  if (p.frequency === 'weekly') return `${at} * * ${p.weekday}`;
  if (p.frequency === 'monthly') return `${at} ${p.monthday} * *`;
  return `${at} * * *`;
}

/** The pick an expression reads as: one of the simple forms, else custom with the expression. */
export function pickOf(cron: string | null): Picked {
  const text = (cron ?? '').trim();
  const parts = text.split(/\s+/);
  if (parts.length === 5) {
    const [m, h, dom, mon, dow] = parts;
    const minute = num(m, 59);
    const hour = num(h, 23);
    if (minute !== null && hour !== null && mon === '*') {
      const time = `${pad(hour)}:${pad(minute)}`;
      if (dom === '*' && dow === '*') return { ...DEFAULT_PICK, frequency: 'daily', time };
      const weekday = num(dow, 6);
      if (dom === '*' && weekday !== null) return { ...DEFAULT_PICK, frequency: 'weekly', time, weekday };
      const monthday = num(dom, LAST_MONTHDAY, 1);
      if (monthday !== null && dow === '*') return { ...DEFAULT_PICK, frequency: 'monthly', time, monthday };
    }
  }
  return { ...DEFAULT_PICK, frequency: 'custom', cron: text };
}

/** A pick in words, for the trigger node: "Every Monday at 09:00". */
export function pickWords(p: Picked): string {
  if (p.frequency === 'daily') return `Every day at ${p.time}`;
  if (p.frequency === 'weekly') return `Every ${WEEKDAYS[p.weekday]} at ${p.time}`;
  if (p.frequency === 'monthly') return `Every month on day ${p.monthday} at ${p.time}`;
  return `Cron ${p.cron}`;
}

/** The browser's own time zone: a new schedule starts in it rather than in UTC. */
export function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A run time in the schedule's own zone, as its owner reads it ("Monday 3 March 2026, 09:00"). */
export function inZone(iso: string, timeZone: string): string {
  try {
    return new Date(iso).toLocaleString(undefined, { timeZone, weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  } catch {
    return new Date(iso).toLocaleString();
  }
}
