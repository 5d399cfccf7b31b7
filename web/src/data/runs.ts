// Runs: the account's runs (the Runs screen, a workflow's page), one run with its timeline (polled
// until it is final), and the moves a person makes on a run (approve, reject, cancel, start).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Static } from '@sinclair/typebox';
import type { HubRunDetail, HubRunInList, Output } from '@server/hub/runs/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';
import { workflowKeys } from './workflows';

export type RunInList = Static<typeof HubRunInList>;
export type RunDetail = HubRunDetail;
export type BlockOutput = Output;

export const runKeys = resourceKeys('runs');

/** Filters: workflow_id, status, trigger. Runs move on their own, so the list keeps itself current. */
export const runListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: runKeys.list(filters, cursor),
    queryFn: () => api.get<Page<RunInList>>(`/hub/api/runs${qs({ ...filters, cursor })}`),
    refetchInterval: 5_000,
  });

/** One run, read again every second until it is final. */
export const runQuery = (id: string) =>
  queryOptions({
    queryKey: runKeys.detail(id),
    queryFn: () => api.get<RunDetail>(`/hub/api/runs/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && !query.state.data.final ? 1_000 : false),
  });

export type RunMove = 'approve' | 'reject' | 'cancel';

/** Approve, reject or cancel: the answer is the run as it now stands, put straight into its query. */
export function useRunMove(runId: string, workflowId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (move: RunMove) => api.post<RunDetail>(`/hub/api/runs/${runId}/${move}`),
    onSuccess: (next) => {
      client.setQueryData(runKeys.detail(runId), next);
      void client.invalidateQueries({ queryKey: runKeys.lists() });
      if (workflowId) void client.invalidateQueries({ queryKey: workflowKeys.detail(workflowId) });
    },
  });
}

/** "Run now": a manual run of a workflow; the caller opens the answer's page. */
export function useStartRun(workflowId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ id: string }>(`/hub/api/workflows/${workflowId}/runs`),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: runKeys.lists() });
      void client.invalidateQueries({ queryKey: workflowKeys.all });
    },
  });
}
