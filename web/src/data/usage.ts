// Usage: a month of billed spend (by day, by feature, each key's against its cap).
import { queryOptions } from '@tanstack/react-query';
import type { HubUsage, KeySpend } from '@server/hub/usage/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys } from './keys';

export type { HubUsage, KeySpend };

export const usageKeys = resourceKeys('usage');

/** One month, YYYY-MM (UTC). */
export const usageQuery = (month: string) =>
  queryOptions({
    queryKey: usageKeys.detail(month),
    queryFn: () => api.get<HubUsage>(`/hub/api/usage${qs({ month })}`),
  });
