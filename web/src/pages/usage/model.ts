// How the Usage screen writes its amounts and months (the answer itself is the server's HubUsage,
// data/usage.ts).
export { dollars } from '../../lib/money';

/** "2026-03" → "March 2026", in UTC so the month never shifts with the viewer's zone. */
export function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The twelve months up to and including `month` (YYYY-MM), newest first. */
export function recentMonths(month: string, n = 12): string[] {
  const [y = 1970, m = 1] = month.split('-').map(Number);
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m - 1 - i, 1)).toISOString().slice(0, 7));
}
