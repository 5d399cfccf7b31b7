// Work management: the projects that use it, a project's items with the project itself, its sprints
// with their totals, one item with its history; opening the area, creating and editing items,
// comments. The server's own shapes (/v1's, and the hub's for an item and the writes).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sprint as SprintSchema, WorkItem as WorkItemSchema, WorkProject as WorkProjectSchema } from '@server/api/workmgmt/schemas';
import type { CreateItemBody, EditItemBody, HubWorkItem, ProjectItems } from '@server/hub/work/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type WorkProject = WorkProjectSchema;
export type WorkItem = WorkItemSchema;
export type Sprint = SprintSchema;
export type WorkProjectItems = ProjectItems;
export type { CreateItemBody, EditItemBody, HubWorkItem };

export const workProjectKeys = resourceKeys('work-projects');
export const workItemKeys = resourceKeys('work-items');
export const sprintKeys = resourceKeys('sprints');

const projectPath = (id: string) => `/hub/api/workmgmt/projects/${encodeURIComponent(id)}`;
const itemPath = (projectId: string, key: string) => `${projectPath(projectId)}/items/${encodeURIComponent(key)}`;

export const workProjectListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: workProjectKeys.list(filters, cursor),
    queryFn: () => api.get<Page<WorkProject>>(`/hub/api/workmgmt/projects${qs({ ...filters, cursor })}`),
  });

/** A project's items in key order, with the project. Filters: status, type, q (words). */
export const workItemListQuery = (projectId: string) => (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: workItemKeys.list({ ...filters, project: projectId }, cursor),
    queryFn: () => api.get<WorkProjectItems>(`${projectPath(projectId)}/items${qs({ ...filters, cursor })}`),
  });

/** A project's sprints, newest first. */
export const sprintListQuery = (projectId: string) => (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: sprintKeys.list({ ...filters, project: projectId }, cursor),
    queryFn: () => api.get<Page<Sprint>>(`${projectPath(projectId)}/sprints${qs({ ...filters, cursor })}`),
  });

/** One item by key (an earlier prefix finds it too), its history entries named by seq. */
export const workItemQuery = (projectId: string, key: string) =>
  queryOptions({
    queryKey: workItemKeys.detail(`${projectId}/${key}`),
    queryFn: () => api.get<HubWorkItem>(itemPath(projectId, key)),
  });

/** Opens work management in a project with its key prefix (owners and admins). */
export function useOpenWorkArea() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, prefix }: { projectId: string; prefix: string }) => api.post<WorkProject>(`${projectPath(projectId)}/open`, { prefix }),
    onSuccess: () => void client.invalidateQueries({ queryKey: workProjectKeys.all }),
  });
}

/** A new item; the caller opens the answer's page. */
export function useCreateWorkItem(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateItemBody) => api.post<HubWorkItem>(`${projectPath(projectId)}/items`, input),
    onSuccess: () => void client.invalidateQueries({ queryKey: workItemKeys.all }),
  });
}

/** Only the fields that changed, with the updated_at the edit started from (409 when someone else changed it since). */
export function useEditWorkItem(projectId: string, key: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: EditItemBody) => api.patch<HubWorkItem>(itemPath(projectId, key), changes),
    onSuccess: (item) => {
      client.setQueryData(workItemKeys.detail(`${projectId}/${key}`), item);
      void client.invalidateQueries({ queryKey: workItemKeys.lists() });
    },
  });
}

/** Comments: add one; edit or delete your own (by its seq in the history). */
export function useWorkComments(projectId: string, key: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: workItemKeys.detail(`${projectId}/${key}`) });
  const onSuccess = () => void refresh();
  return {
    add: useMutation({ mutationFn: (text: string) => api.post<HubWorkItem>(`${itemPath(projectId, key)}/comments`, { text }), onSuccess }),
    edit: useMutation({ mutationFn: ({ seq, text }: { seq: number; text: string }) => api.patch<HubWorkItem>(`${itemPath(projectId, key)}/comments/${seq}`, { text }), onSuccess }),
    remove: useMutation({ mutationFn: (seq: number) => api.delete(`${itemPath(projectId, key)}/comments/${seq}`), onSuccess }),
  };
}
