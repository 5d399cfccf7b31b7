// Runs: the account's runs (the Runs screen, a workflow's page), one run with its timeline (polled
// until it is final), how many await approval (the navigation's badge, polled gently), and the
// moves a person makes on a run (approve with an optional edit, reject with an optional reason,
// cancel, start, and retry: "Run again").
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Static } from '@sinclair/typebox';
import type { ApproveBody, AwaitingCount, HubRunDetail, HubRunInList, Output, RejectBody } from '@server/hub/runs/schemas';
import type { StartedRun } from '@server/api/runs/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';
import { workflowKeys } from './workflows';

export type RunInList = Static<typeof HubRunInList>;
export type RunDetail = HubRunDetail;
export type BlockOutput = Output;

export const runKeys = resourceKeys('runs');
/** Under runKeys.all, so whatever refreshes runs refreshes the count too. */
const awaitingKey = [...runKeys.all, 'awaiting'] as const;

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

/**
 * How many runs of the account await approval: the navigation's badge. Read every 30 s (a count
 * on a partial index), and again after any move on a run.
 */
export const runsAwaitingQuery = () =>
  queryOptions({
    queryKey: awaitingKey,
    queryFn: () => api.get<AwaitingCount>('/hub/api/runs/awaiting'),
    refetchInterval: 30_000,
  });

/** A move and its body: approve with the draft edited (text), reject with a reason; cancel takes none. */
export type RunMove = { move: 'approve'; body?: ApproveBody } | { move: 'reject'; body?: RejectBody } | { move: 'cancel'; body?: undefined };

/** Approve, reject or cancel: the answer is the run as it now stands, put straight into its query. */
export function useRunMove(runId: string, workflowId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (m: RunMove) => api.post<RunDetail>(`/hub/api/runs/${runId}/${m.move}`, m.body),
    onSuccess: (next) => {
      client.setQueryData(runKeys.detail(runId), next);
      void client.invalidateQueries({ queryKey: runKeys.lists() });
      void client.invalidateQueries({ queryKey: awaitingKey });
      if (workflowId) void client.invalidateQueries({ queryKey: workflowKeys.detail(workflowId) });
    },
  });
}

/** "Run again": retries a run (a new manual run of the same definition, naming it); the caller opens the answer's page. */
export function useRetryRun(runId: string, workflowId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<StartedRun>(`/hub/api/runs/${runId}/retry`),
    onSuccess: () => {
      // The original now names its newest retry; the lists gain the new run.
      void client.invalidateQueries({ queryKey: runKeys.detail(runId) });
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
