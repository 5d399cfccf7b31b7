// Workflows: the list (the Workflows screen, pickers, which search by name with q), one workflow
// with its blocks and newest runs, deleting one, and the builder's reads and writes (its editor,
// the schedule preview, saving the definition (its schedule too) and the status, testing a block).
import { queryOptions, useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import type {
  BlockTestBody,
  BlockTestResult,
  HubWorkflowBlock,
  HubWorkflowDetail,
  HubWorkflowInList,
  ReplaceBody,
  SchedulePreview,
  WorkflowDefinition,
  WorkflowEditor as WorkflowEditorSchema,
} from '@server/hub/workflows/schemas';
import type { WorkflowStatus } from '@domain/workflow';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type WorkflowInList = HubWorkflowInList;
export type WorkflowDetail = HubWorkflowDetail;
export type WorkflowBlock = HubWorkflowBlock;
/** The builder's view of a workflow: its definition (the `workflows create|edit` format) and more. */
export type WorkflowEditor = WorkflowEditorSchema;
export type { BlockTestResult, SchedulePreview, WorkflowDefinition };

export const workflowKeys = resourceKeys('workflows');
// The builder's editor is its own resource: refreshing the workflows (after a save) must not
// refetch the editor the save has just put in place.
const editorKeys = resourceKeys('workflow-editors');
const schedulePreviewKeys = resourceKeys('schedule-previews');

/** Filters: status, project_id, q (a name search), limit (1–100). Most recently changed first. */
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

/** The builder's editor of one workflow. */
export const workflowEditorQuery = (id: string) =>
  queryOptions({
    queryKey: editorKeys.detail(id),
    queryFn: () => api.get<WorkflowEditor>(`/hub/api/workflows/${encodeURIComponent(id)}/definition`),
    enabled: id !== '',
  });

/** The next times a cron expression fires in a time zone (a bad expression: 422 invalid_field). */
export const schedulePreviewQuery = (cron: string, timezone: string) =>
  queryOptions({
    queryKey: schedulePreviewKeys.detail(JSON.stringify([cron, timezone])),
    queryFn: () => api.get<SchedulePreview>(`/hub/api/schedule-preview${qs({ cron, timezone })}`),
    enabled: cron !== '' && timezone !== '',
  });

/** What the builder saves: a whole definition, with the updated_at its edit started from (a PUT, unless forced). */
export type SavedDefinition = WorkflowDefinition & Pick<ReplaceBody, 'expected_updated_at'>;

type EditorWriteOptions<V> = Omit<UseMutationOptions<WorkflowEditor, Error, V>, 'mutationFn'>;

/**
 * A builder write: every one answers the workflow's editor, which becomes the editor query's data
 * (the builder's new base); the workflow's list rows and page are refreshed. The caller's own
 * callbacks (the draft taking the answer) run after.
 */
function useEditorWrite<V>(send: (v: V) => Promise<WorkflowEditor>, options: EditorWriteOptions<V>) {
  const client = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: send,
    onSuccess: (e, v, ctx, mutation) => {
      client.setQueryData(editorKeys.detail(e.id), e);
      void client.invalidateQueries({ queryKey: workflowKeys.all });
      return options.onSuccess?.(e, v, ctx, mutation);
    },
  });
}

/** Save the definition: POST for a new workflow (id null), PUT otherwise (409 workflow_changed on a concurrent edit). */
export const useSaveDefinition = (id: string | null, options: EditorWriteOptions<SavedDefinition> = {}) =>
  useEditorWrite(
    (body: SavedDefinition) =>
      id ? api.put<WorkflowEditor>(`/hub/api/workflows/${id}/definition`, body) : api.post<WorkflowEditor>('/hub/api/workflows', body),
    options,
  );

export const useWorkflowStatus = (id: string | null, options: EditorWriteOptions<WorkflowStatus> = {}) =>
  useEditorWrite((status: WorkflowStatus) => api.post<WorkflowEditor>(`/hub/api/workflows/${id}/status`, { status }), options);

/** The editor as the server has it now (someone else saved first: "Reload"), refreshing what shows the workflow. */
export function useFetchEditor() {
  const client = useQueryClient();
  return async (id: string) => {
    const e = await client.fetchQuery({ ...workflowEditorQuery(id), staleTime: 0 });
    void client.invalidateQueries({ queryKey: workflowKeys.all });
    return e;
  };
}

/**
 * Test one saved block on sample inputs (no run starts). Nothing the hub shows changes, except the
 * account's usage when a real AI provider billed it — the Usage screen reads that when opened.
 */
export function useTestBlock(workflowId: string) {
  return useMutation({
    mutationFn: ({ block, body }: { block: string; body: BlockTestBody }) =>
      api.post<BlockTestResult>(`/hub/api/workflows/${encodeURIComponent(workflowId)}/blocks/${encodeURIComponent(block)}/test`, body),
  });
}
