// The providers the server runs with (AI, email, SMS), development stand-ins marked: the shell's
// banner, the Settings card. They change only when the operator restarts the server, so they are
// read once per page load.
import { queryOptions } from '@tanstack/react-query';
import type { Providers } from '@server/hub/settings/schemas';
import { api } from '../lib/api';
import { resourceKeys } from './keys';

export type { Providers };

export const providerKeys = resourceKeys('providers');

export const providersQuery = () =>
  queryOptions({
    queryKey: providerKeys.all,
    queryFn: () => api.get<Providers>('/hub/api/settings/providers'),
    staleTime: Infinity,
  });
