// GET /usage: one month of the account's billed usage for the Usage screen: micros by day (the
// chart), totals by feature, the balance, and, for owners and admins only, each key's spend
// against its monthly cap (members never see keys).
import { ApiError } from '../../domain/errors.js';
import { mayAdminister } from '../../domain/hub.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { balanceAndToday, usageSums } from '../../services/usage/read-store.js';
import { hubAuthOf, hubRoute } from '../kit.js';
import { keySpend } from './store.js';
import { HubUsage, UsageQuery } from './schemas.js';

const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The month's last day: the day before the next month's first. */
function lastDayOf(month: string): string {
  const [y, m] = month.split('-'); // YYYY-MM: the query schema checked it
  return toDay(Date.UTC(Number(y), Number(m), 1) - DAY_MS);
}

export function registerHubUsageRoutes(hub: App, deps: AppDeps): void {
  hub.get('/usage', hubRoute('member', {
    operationId: 'hubGetUsage',
    summary: "A month's usage",
    description:
      'Billed micros by day for the month (up to today), totals by feature, the balance, and each key\'s spend against its cap. ' +
      'Members see everything but the keys (keys is null for them).',
    querystring: UsageQuery,
    response: { 200: HubUsage },
  }), async (request): Promise<HubUsage> => {
    const auth = hubAuthOf(request);
    const { balance, today } = await balanceAndToday(deps.db, auth.accountId);
    const month = request.query.month ?? today.slice(0, 7);
    if (month < '1970-01') throw new ApiError('invalid_parameter', `The month ${month} is before 1970-01.`, { param: 'month' });
    const from = `${month}-01`;
    const last = lastDayOf(month);
    const to = last < today ? last : today;
    const days = Math.max(0, (toMs(to) - toMs(from)) / DAY_MS + 1);
    const [sums, keys] = await Promise.all([
      days > 0 ? usageSums(deps.db, auth.accountId, from, to) : Promise.resolve({ total: 0, byDay: new Map<string, number>(), byFeature: [] }),
      mayAdminister(auth.role) ? keySpend(deps.db, auth.accountId, month) : Promise.resolve(null),
    ]);
    return {
      month,
      currency: 'usd',
      balance_micros: balance,
      total_micros: sums.total,
      by_day: Array.from({ length: days }, (_, i) => {
        const date = toDay(toMs(from) + i * DAY_MS);
        return { date, micros: sums.byDay.get(date) ?? 0 };
      }),
      by_feature: sums.byFeature,
      keys:
        keys?.map((k) => ({
          id: k.id,
          name: k.name,
          prefix: k.prefix,
          monthly_spend_cap_micros: k.monthly_spend_cap_micros === null ? null : Number(k.monthly_spend_cap_micros),
          spent_micros: Number(k.spent_micros),
          revoked: k.revoked,
        })) ?? null,
    };
  });
}
