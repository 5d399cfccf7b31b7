// An ISO 8601 duration (a wait step's config.duration) in words a person reads: "P2D" → "2 days",
// "PT90M" → "90 minutes", "P1DT2H" → "1 day 2 hours". Pure, for the hub's builder and the
// starters' step names alike; a value that is not a duration is returned as written.
import { DURATION_RE } from './config-schema.js';

const UNITS = [
  [1, 'year'],
  [2, 'month'],
  [3, 'week'],
  [4, 'day'],
  [6, 'hour'],
  [7, 'minute'],
  [8, 'second'],
] as const;

export function durationWords(iso: string): string {
  const m = DURATION_RE.exec(iso);
  if (!m) return iso;
  const parts: string[] = [];
  for (const [group, unit] of UNITS) {
    const raw = m[group];
    if (!raw) continue;
    const n = Number(raw.slice(0, -1));
    parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.length ? parts.join(' ') : iso;
}
