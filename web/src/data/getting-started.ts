// The home screen's getting-started checklist (GET /hub/api/getting-started): which first steps
// the account has done, and whether this person hid the list. Read fresh whenever home opens
// (staleTime 0), so a project or a workflow made elsewhere shows as done on return.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { GettingStarted, StartStepKey } from '@server/hub/getting-started/schemas';
import { api } from '../lib/api';
import { resourceKeys } from './keys';

export type { GettingStarted, StartStepKey };

export const gettingStartedKeys = resourceKeys('getting-started');

export const gettingStartedQuery = () =>
  queryOptions({
    queryKey: gettingStartedKeys.all,
    queryFn: () => api.get<GettingStarted>('/hub/api/getting-started'),
    staleTime: 0,
  });

/** Hide or show the checklist for the signed-in person (kept on the server, for every browser). */
export function useHideGettingStarted() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (hidden: boolean) => api.put<GettingStarted>('/hub/api/getting-started', { hidden }),
    onSuccess: (data) => client.setQueryData(gettingStartedKeys.all, data),
  });
}
