// The Usage screen's data: GET /hub/api/usage's answer (src/hub/usage/routes.ts, HubUsage) and how
// its amounts and months are written.
export interface KeySpend {
  id: string;
  name: string;
  prefix: string;
  monthly_spend_cap_micros: number | null;
  spent_micros: number;
  revoked: boolean;
}

export interface Usage {
  month: string;
  currency: 'usd';
  balance_micros: number;
  total_micros: number;
  by_day: { date: string; micros: number }[];
  by_feature: { feature: string; micros: number }[];
  /** null for a member: only owners and admins see keys. */
  keys: KeySpend[] | null;
}

export { dollars } from '../../lib/money';

/** "2026-03" → "March 2026", in UTC so the month never shifts with the viewer's zone. */
export function monthName(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The twelve months up to and including `month` (YYYY-MM), newest first. */
export function recentMonths(month: string, n = 12): string[] {
  const [y, m] = month.split('-').map(Number);
  return Array.from({ length: n }, (_, i) => new Date(Date.UTC(y, m - 1 - i, 1)).toISOString().slice(0, 7));
}
