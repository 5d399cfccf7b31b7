// Settings: the account's name, each project's settings, and the plan the operator sets.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectSettings, Settings } from '@server/hub/settings/schemas';
import { api } from '../lib/api';
import { SESSION_KEY } from '../lib/session';
import { resourceKeys } from './keys';

export type { ProjectSettings, Settings };

export const settingsKeys = resourceKeys('settings');

export const settingsQuery = () =>
  queryOptions({
    queryKey: settingsKeys.all,
    queryFn: () => api.get<Settings>('/hub/api/settings'),
  });

export function useRenameAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.patch<Settings>('/hub/api/settings', { name }),
    onSuccess: async (s) => {
      client.setQueryData(settingsKeys.all, s);
      // The top bar shows the account's name from the session.
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

export function useSaveProjectSettings(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { sms_consent_required: boolean; max_automations_per_contact: number }) =>
      api.patch<ProjectSettings>(`/hub/api/settings/projects/${projectId}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.all }),
  });
}
