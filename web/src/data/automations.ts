// Automations: the list (the Automations screen), one automation's page (its summary and a page of
// its runs per contact), the builder's editor, diff, versions and previews, and every move a person
// makes on an automation (create, save the draft, publish, pause, resume, delete, rotate the webhook,
// send a test). Every key starts with 'automations', so a move that refreshes `automationKeys.all`
// reaches the list, the page, its runs and the builder's editor alike (as the hub always did).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { StepType } from '@domain/automation';
import type { AutomationDiff as DomainDiff } from '@domain/automation-diff';
import type { Automation as AutomationSchema } from '@server/api/automations/schemas';
import type { AutomationRun as AutomationRunSchema } from '@server/api/automation-runs/schemas';
import type {
  AutomationDiff as DiffSchema,
  AutomationEditor as EditorSchema,
  Definition as DefinitionSchema,
  Deleted,
  HubAutomationDetail,
  PreviewBody,
  Step as StepSchema,
  TemplatePreview,
  TestBody,
  TestStarted,
  VersionList,
  VersionView as VersionSchema,
  Webhook,
} from '@server/hub/automations/schemas';
import type { SchedulePreview } from '@server/hub/workflows/schemas';
import { api, qs } from '../lib/api';
import { resourceKeys, type Filters, type Page } from './keys';

/** A server type with some fields read more precisely (only fields the server type has). */
type Narrow<T, N extends { [K in keyof N]: K extends keyof T ? unknown : never }> = Omit<T, keyof N> & N;

export type Automation = AutomationSchema;
export type AutomationRun = AutomationRunSchema;
export type { Problem, ProjectFacts, TemplatePreview, TestStarted, VersionSummary } from '@server/hub/automations/schemas';

/** A condition on a contact field: a branch step's config and the Run-only-if filter (checked by the server's validator). */
export interface Condition {
  field: string;
  op?: string;
  value?: unknown;
}
// The server declares a step's type and a condition loosely (its validator checks them); the
// builder reads them as the domain's step types and the condition's fields.
export type Step = Narrow<StepSchema, { type: StepType }>;
export type Definition = Narrow<DefinitionSchema, { steps: Step[]; run_only_if: Condition | null }>;
export type Trigger = Definition['trigger'];
export type AutomationEditor = Narrow<EditorSchema, { draft: Definition; published: Definition | null }>;
export type VersionView = Narrow<VersionSchema, { definition: Definition }>;
/** The server's diff (src/domain/automation-diff.ts, GET …/diff) over the builder's steps, with both sides' settings. */
export type AutomationDiff = DomainDiff<Step> & Pick<DiffSchema, 'settings'>;
/** What PUT …/draft takes: the editable parts of the definition. */
export type DraftBody = Pick<Definition, 'name' | 'trigger' | 'run_only_if' | 'reenroll' | 'steps'>;

const keys = resourceKeys('automations');
export const automationKeys = {
  ...keys,
  /** One page of an automation's runs (its page's table). */
  runs: (id: string, filters: Filters, cursor?: string) => [...keys.detail(id), 'runs', filters, cursor ?? null] as const,
  editor: (id: string) => [...keys.detail(id), 'editor'] as const,
  diff: (id: string) => [...keys.detail(id), 'diff'] as const,
  versions: (id: string) => [...keys.detail(id), 'versions'] as const,
  version: (id: string, version: number) => [...keys.detail(id), 'versions', version] as const,
};
// Previews are not the automation's state: a move on an automation leaves them be.
const previewKeys = resourceKeys('automation-previews');
const scheduleKeys = resourceKeys('schedule-previews');

const path = (id: string) => `/hub/api/automations/${encodeURIComponent(id)}`;

/** Filters: status, project_id. Most recently changed first. */
export const automationListQuery = (filters: Filters, cursor?: string) =>
  queryOptions({
    queryKey: automationKeys.list(filters, cursor),
    queryFn: () => api.get<Page<Automation>>(`/hub/api/automations${qs({ ...filters, cursor })}`),
  });

/** The automation's summary (status, version, counters) for its page's head. */
export const automationQuery = (id: string) =>
  queryOptions({
    queryKey: automationKeys.detail(id),
    queryFn: async () => (await api.get<HubAutomationDetail>(`${path(id)}?limit=1`)).automation,
  });

/** Its runs per contact, newest first, in Run history's words (filter: status), for useListQuery. */
export const automationRunsQuery =
  (id: string) =>
  (filters: Filters, cursor?: string) =>
    queryOptions({
      queryKey: automationKeys.runs(id, filters, cursor),
      queryFn: async (): Promise<Page<AutomationRun>> => (await api.get<HubAutomationDetail>(`${path(id)}${qs({ ...filters, cursor })}`)).runs,
    });

/** The builder's document; the draft in it is read once (later answers refresh what the server knows). */
export const automationEditorQuery = (id: string) =>
  queryOptions({
    queryKey: automationKeys.editor(id),
    queryFn: () => api.get<AutomationEditor>(`${path(id)}/editor`),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The draft against the running version, read fresh each time the publish dialog opens. */
export const automationDiffQuery = (id: string) =>
  queryOptions({
    queryKey: automationKeys.diff(id),
    queryFn: () => api.get<AutomationDiff>(`${path(id)}/diff`),
    staleTime: 0,
    gcTime: 0,
  });

export const automationVersionsQuery = (id: string) =>
  queryOptions({ queryKey: automationKeys.versions(id), queryFn: () => api.get<VersionList>(`${path(id)}/versions`) });

/** A published version never changes. */
export const automationVersionQuery = (id: string, version: number) =>
  queryOptions({ queryKey: automationKeys.version(id, version), queryFn: () => api.get<VersionView>(`${path(id)}/versions/${version}`), staleTime: Infinity });

/** A message as a contact would get it; `body` is the PreviewBody as JSON (the key of what was asked). */
export const templatePreviewQuery = (body: string) =>
  queryOptions({
    queryKey: previewKeys.detail(body),
    queryFn: () => api.post<TemplatePreview>('/hub/api/automations/preview', JSON.parse(body) as PreviewBody),
    placeholderData: (previous) => previous,
    staleTime: Infinity,
    retry: false,
  });

/** The next times a cron fires (the server's own cron reader). */
export const schedulePreviewQuery = (cron: string, timezone: string) =>
  queryOptions({
    queryKey: scheduleKeys.detail(JSON.stringify([cron, timezone])),
    queryFn: () => api.get<SchedulePreview>(`/hub/api/schedule-preview${qs({ cron, timezone })}`),
    enabled: cron.trim() !== '',
    retry: false,
    staleTime: 60_000,
  });

/** The answer to PUT …/draft (the save queue calls it; the caller puts the answer in the editor's query). */
export const saveDraft = (id: string, body: DraftBody) => api.put<AutomationEditor>(`${path(id)}/draft`, body);

export function useCreateAutomation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Definition) => api.post<AutomationEditor>('/hub/api/automations', body),
    onSuccess: () => client.invalidateQueries({ queryKey: automationKeys.lists() }),
  });
}

/** Pause, resume or publish (the draft becomes the next version). */
export function useAutomationMove(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (move: 'pause' | 'resume' | 'publish') => api.post<Automation>(`${path(id)}/${move}`),
    onSuccess: () => client.invalidateQueries({ queryKey: automationKeys.all }),
  });
}

export function useDeleteAutomation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<Deleted>(path(id)),
    onSuccess: () => {
      client.removeQueries({ queryKey: automationKeys.detail(id) });
      return client.invalidateQueries({ queryKey: automationKeys.lists() });
    },
  });
}

/** A new webhook URL (shown once); the editor learns a webhook is configured. */
export function useRotateWebhook(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<Webhook>(`${path(id)}/webhook`),
    onSettled: () => client.invalidateQueries({ queryKey: automationKeys.editor(id) }),
  });
}

/**
 * Send test: `ready` runs first (the builder saves what was typed a moment ago). Nothing to
 * refresh: the test run is followed on its own (automationRunQuery), and the automation's page
 * reads its runs when it opens.
 */
export function useSendTest(id: string, ready: (body: TestBody) => Promise<void>) {
  return useMutation({
    mutationFn: async (body: TestBody) => {
      await ready(body);
      return api.post<TestStarted>(`${path(id)}/test`, body);
    },
  });
}
