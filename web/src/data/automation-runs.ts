// Automation runs: one contact's run of an automation with its steps in words (the run's page;
// Send test follows its steps as they happen) and stopping a run from the automation's page. The runs of one automation are read with the
// automation (automationRunsQuery in automations.ts: the hub answers them on its page's route).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AutomationRun } from '@server/api/automation-runs/schemas';
import type { HubAutomationRunDetail } from '@server/hub/automation-runs/schemas';
import { api } from '../lib/api';
import { automationKeys } from './automations';
import { resourceKeys } from './keys';

export type { HubAutomationRunDetail, HubRunStep } from '@server/hub/automation-runs/schemas';

export const automationRunKeys = resourceKeys('automation-runs');

/** One run with its steps in words, read again every second while it runs (a wait or an end stops that). */
export const automationRunQuery = (id: string) =>
  queryOptions({
    queryKey: automationRunKeys.detail(id),
    queryFn: () => api.get<HubAutomationRunDetail>(`/hub/api/automation-runs/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'running' ? false : 1000),
  });

/** Stop a running or waiting run: the automation's page (its runs, its counters) reads again either way. */
export function useStopRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<AutomationRun>(`/hub/api/automation-runs/${encodeURIComponent(id)}/stop`),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: automationRunKeys.detail(id) });
      return client.invalidateQueries({ queryKey: automationKeys.all });
    },
  });
}
