// Work management (read only in the hub): the projects that use it, a project's items with the
// project itself, and its sprints with their totals. The server's own shapes (/v1's).
import { queryOptions } from '@tanstack/react-query';
import type { Sprint as SprintSchema, WorkItem as WorkItemSchema, WorkProject as WorkProjectSchema } from '@server/api/workmgmt/schemas';
import type { ProjectItems } from '@server/hub/work/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type WorkProject = WorkProjectSchema;
export type WorkItem = WorkItemSchema;
export type Sprint = SprintSchema;
export type WorkProjectItems = ProjectItems;

export const workProjectKeys = resourceKeys('work-projects');
export const workItemKeys = resourceKeys('work-items');
export const sprintKeys = resourceKeys('sprints');

const projectPath = (id: string) => `/hub/api/workmgmt/projects/${encodeURIComponent(id)}`;

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
