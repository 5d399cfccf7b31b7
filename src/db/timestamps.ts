// timestamptz as it comes from either store. Sessions run in UTC, so values arrive as
// "YYYY-MM-DD HH:MM:SS[.ffffff]+00"; slicing that is several times cheaper than the drivers'
// generic parsers (regular expressions in `pg`, the Date string parser in PGlite), which showed up
// at ~7% of a list request's CPU. Anything else (infinity, BC dates, another zone) goes to the
// store's own parser.
export const TIMESTAMPTZ_OID = 1184;

const UTC_TS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00$/;

export function parseUtcTimestamp(v: string, fallback: (v: string) => Date): Date {
  if (!UTC_TS.test(v)) return fallback(v);
  const ms = v.length > 22 ? Math.floor(Number(v.slice(20, v.length - 3).padEnd(3, '0').slice(0, 3))) : 0;
  return new Date(Date.UTC(+v.slice(0, 4), +v.slice(5, 7) - 1, +v.slice(8, 10), +v.slice(11, 13), +v.slice(14, 16), +v.slice(17, 19), ms));
}
