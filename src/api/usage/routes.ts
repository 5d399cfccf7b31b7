// GET /usage: the account's billed usage between two UTC dates, by day and by feature, and its
// balance. The route file is the contract.
import type { AppDeps } from '../../http/deps.js';
import { authOf, type App } from '../../http/route-kit.js';
import { ApiError } from '../../domain/errors.js';
import { meta, v1Responses } from '../../http/route.js';
import { Usage, UsageQuery } from './schemas.js';
import { balanceAndToday, usageSums } from '../../services/usage/read-store.js';

/** The longest range one request may cover, in days (both ends included): a leap year. */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const toDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function registerUsageRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/usage',
    {
      config: meta({ scope: 'usage:read', write: false }),
      schema: {
        operationId: 'getUsage',
        summary: 'Read usage',
        description:
          `Billed usage between two UTC dates, both included (default: the current UTC month to date), by day and by ` +
          `feature, and the balance. At most ${MAX_RANGE_DAYS} days per request.`,
        tags: ['Usage'],
        querystring: UsageQuery,
        response: v1Responses({ 200: Usage }),
      },
    },
    async (request) => {
      const q = request.query;
      const accountId = authOf(request).accountId;
      const { balance, today } = await balanceAndToday(deps.db, accountId);
      const to = q.to ?? today;
      const from = q.from ?? `${to.slice(0, 8)}01`;
      const days = (toMs(to) - toMs(from)) / DAY_MS + 1;
      if (days < 1) {
        throw new ApiError('invalid_parameter', `The query parameter from (${from}) is after to (${to}).`, { param: 'from' });
      }
      if (days > MAX_RANGE_DAYS) {
        throw new ApiError('invalid_parameter', `The range from ${from} to ${to} covers ${days} days; at most ${MAX_RANGE_DAYS} are allowed.`, {
          param: 'to',
        });
      }
      const sums = await usageSums(deps.db, accountId, from, to);
      const by_day = Array.from({ length: days }, (_, i) => {
        const date = toDay(toMs(from) + i * DAY_MS);
        return { date, micros: sums.byDay.get(date) ?? 0 };
      });
      return {
        currency: 'usd' as const,
        from,
        to,
        balance_micros: balance,
        total_micros: sums.total,
        by_day,
        by_feature: sums.byFeature,
      };
    },
  );
}
