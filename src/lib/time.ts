// Timestamps leave the API as ISO 8601 UTC with millisecond precision and a trailing Z.
//
// Written by hand for the years 1970 to 9999, which is every timestamp the stores hold:
// V8's toISOString formats through vsnprintf at ~0.35 µs a value, and a list page renders 50 of
// them (7.8% of a list request's CPU in the bench's profile of `switchboard serve`); this takes
// ~0.1 µs. The string is made in one piece from its character codes: a template literal built it
// from ten pieces, and a list request's allocations (the sampling heap profiler, collected
// objects included) rose by a tenth. Anything else (earlier, later, an invalid date, which
// throws) is toISOString's.

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from here on toISOString writes an extended (+YYYYYY) year. */
const YEAR_10000_MS = 253_402_300_800_000;
const ZERO = 48; // '0'
const [DASH, T, COLON, DOT, Z] = [45, 84, 58, 46, 90]; // - T : . Z

export function iso(d: Date | string | number): string {
  const date = d instanceof Date ? d : new Date(d);
  const t = date.getTime();
  if (!(t >= 0 && t < YEAR_10000_MS)) return date.toISOString();
  const days = Math.floor(t / DAY_MS);
  let ms = t - days * DAY_MS;
  // Days since 1970-01-01 to a civil date in the proleptic Gregorian calendar: the "civil from
  // days" algorithm (eras of 400 years = 146,097 days, years starting on 1 March so the leap
  // day is the last of its year).
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March … 11 = February
  const day = dayOfYear - Math.floor((153 * m + 2) / 5) + 1;
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(ms / 3_600_000);
  ms -= hour * 3_600_000;
  const minute = Math.floor(ms / 60_000);
  ms -= minute * 60_000;
  const second = Math.floor(ms / 1_000);
  ms -= second * 1_000;
  // prettier-ignore
  return String.fromCharCode(
    ZERO + Math.floor(year / 1000), ZERO + (Math.floor(year / 100) % 10), ZERO + (Math.floor(year / 10) % 10), ZERO + (year % 10), DASH,
    ZERO + Math.floor(month / 10), ZERO + (month % 10), DASH,
    ZERO + Math.floor(day / 10), ZERO + (day % 10), T,
    ZERO + Math.floor(hour / 10), ZERO + (hour % 10), COLON,
    ZERO + Math.floor(minute / 10), ZERO + (minute % 10), COLON,
    ZERO + Math.floor(second / 10), ZERO + (second % 10), DOT,
    ZERO + Math.floor(ms / 100), ZERO + (Math.floor(ms / 10) % 10), ZERO + (ms % 10), Z,
  );
}

export function isoOrNull(d: Date | string | number | null | undefined): string | null {
  return d === null || d === undefined ? null : iso(d);
}

// Reading timestamps and dates written by people (fixture files): ISO 8601, the moment fixed by a
// zone, in years 1 to 9999 (the years both stores and JS dates hold).

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const [FIRST_YEAR, LAST_YEAR] = [1, 9999];

function daysInMonth(y: number, m: number): number {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

function validDay(y: number, m: number, d: number): boolean {
  return y >= FIRST_YEAR && y <= LAST_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/**
 * An ISO 8601 timestamp with a zone (one without means a different instant on every machine) as
 * UTC `…Z`, or null when v is none. No leap second, no hour 24: neither is a moment JS can hold.
 */
export function utcTimestamp(v: string): string | null {
  const m = TIMESTAMP_RE.exec(v);
  if (!m) return null;
  const num = (i: number) => Number(m[i]);
  const [y, mo, d, h, mi] = [num(1), num(2), num(3), num(4), num(5)] as const;
  const s = m[6] ? Number(m[6]) : 0;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const offH = m[10] ? Number(m[10]) : 0;
  const offM = m[11] ? Number(m[11]) : 0;
  if (!validDay(y, mo, d) || h > 23 || mi > 59 || s > 59 || offH > 23 || offM > 59) return null;
  const sign = m[9] === '-' ? -1 : 1;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const local = new Date(0);
  local.setUTCFullYear(y, mo - 1, d);
  local.setUTCHours(h, mi, s, ms);
  const at = new Date(local.getTime() - sign * (offH * 60 + offM) * 60_000);
  if (at.getUTCFullYear() < FIRST_YEAR || at.getUTCFullYear() > LAST_YEAR) return null;
  return at.toISOString();
}

/** A calendar day written YYYY-MM-DD, in years 1 to 9999. */
export function isCalendarDate(v: string): boolean {
  const m = DATE_RE.exec(v);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}
