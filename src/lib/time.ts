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
