// Content projects and their items: the server's own shapes (/v1's Project and Item schemas, which
// the hub's content routes answer), the reads (the Content screens, the builders' pickers, which
// search by name or title with q) and the writes (a new project, a new page) with what they refresh.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Item as ItemSchema, ItemSummary as ItemSummarySchema } from '@server/api/items/schemas';
import type { Project as ProjectSchema } from '@server/api/projects/schemas';
import type { CreateProjectBody, Preview, ProjectItems } from '@server/hub/content/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

export type Project = ProjectSchema;
/** An item as Get an item answers it (a page's text and html included): a union told apart by `kind`. */
export type Item = ItemSchema;
/** An item in a list (a page without its text and html). */
export type ItemSummary = ItemSummarySchema;
export type { ProjectItems };
export type PagePreview = Preview;

export const projectKeys = resourceKeys('projects');
/** Items are listed per project; their keys start with 'items' so a new page refreshes every list. */
export const itemKeys = resourceKeys('items');
const previewKeys = resourceKeys('page-previews');

/** Filters: q (a name search), limit. Newest first. */
export const projectListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: projectKeys.list(filters, cursor),
    queryFn: () => api.get<Page<Project>>(`/hub/api/projects${qs({ ...filters, cursor })}`),
  });

/**
 * One project. The hub has no route for a project alone: its items' first page carries it (the
 * project screen's own request), so this reads one item with it.
 */
export const projectQuery = (id: string) =>
  queryOptions({
    queryKey: projectKeys.detail(id),
    queryFn: async () => (await api.get<ProjectItems>(`/hub/api/projects/${encodeURIComponent(id)}/items?limit=1`)).project,
    enabled: id !== '',
  });

/** A project's items with the project itself. Filters: kind, q (a title search), limit. */
export const itemListQuery = (projectId: string) => (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: itemKeys.list({ ...filters, project: projectId }, cursor),
    queryFn: () => api.get<ProjectItems>(`/hub/api/projects/${encodeURIComponent(projectId)}/items${qs({ ...filters, cursor })}`),
    enabled: projectId !== '',
  });

export const itemQuery = (id: string) =>
  queryOptions({
    queryKey: itemKeys.detail(id),
    queryFn: () => api.get<Item>(`/hub/api/items/${encodeURIComponent(id)}`),
    enabled: id !== '',
  });

/** The sanitised HTML a page from this source would have; nothing is saved. */
export const pagePreviewQuery = (format: 'markdown' | 'html', source: string) =>
  queryOptions({
    queryKey: previewKeys.detail(JSON.stringify([format, source])),
    queryFn: () => api.post<PagePreview>('/hub/api/pages/preview', { [format]: source }),
    enabled: source.trim() !== '',
    staleTime: Infinity,
  });

/** A new project: every project list (Content's, the pickers') shows it. */
export function useCreateProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProjectBody) => api.post<Project>('/hub/api/projects', body),
    onSuccess: () => client.invalidateQueries({ queryKey: projectKeys.lists() }),
  });
}

/** A new page in a project: its item lists (the project screen, the item picker) show it. */
export function useCreatePage(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; markdown?: string; html?: string }) => api.post<Item>(`/hub/api/projects/${encodeURIComponent(projectId)}/pages`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: itemKeys.lists() }),
  });
}
