// Workflows: the list (the Workflows screen, pickers), one workflow with its blocks and newest
// runs, and deleting one. The builder's reads and writes live with the builder until it moves here.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';
import type { RunInList } from './runs';

// TODO(issue 24): server schema — HubWorkflowInList and HubWorkflowDetail are named schemas in
// src/hub/workflows/routes.ts (a Fastify module, not a pure schemas.ts yet); swap these two for
// `Static<typeof …>` from '@server/hub/workflows/schemas' once they move there.
export interface WorkflowInList {
  id: string;
  name: string;
  description: string;
  status: string;
  project_id: string | null;
  project_name: string | null;
  block_count: number;
  updated_at: string;
  last_run: { id: string; status: string; at: string } | null;
}
export interface WorkflowDetail extends WorkflowInList {
  schedule: string | null;
  blocks: { id: string; kind: string; config: Record<string, unknown>; inputs: string[] }[];
  recent_runs: RunInList[];
  more_runs: boolean;
}
export type WorkflowBlock = WorkflowDetail['blocks'][number];

export const workflowKeys = resourceKeys('workflows');

/** Filters: status, project_id, limit (1–100). Most recently changed first. */
export const workflowListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: workflowKeys.list(filters, cursor),
    queryFn: () => api.get<Page<WorkflowInList>>(`/hub/api/workflows${qs({ ...filters, cursor })}`),
  });

/** One workflow, kept current while its page is open (its runs move on their own). */
export const workflowQuery = (id: string) =>
  queryOptions({
    queryKey: workflowKeys.detail(id),
    queryFn: () => api.get<WorkflowDetail>(`/hub/api/workflows/${encodeURIComponent(id)}`),
    refetchInterval: 5_000,
  });

export function useDeleteWorkflow(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ id: string; deleted: true }>(`/hub/api/workflows/${id}`),
    onSuccess: () => {
      client.removeQueries({ queryKey: workflowKeys.detail(id) });
      void client.invalidateQueries({ queryKey: workflowKeys.lists() });
    },
  });
}
