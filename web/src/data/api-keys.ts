// API keys (owners and admins): the account's keys with the active-key limit (one answer, no
// pages), the scopes a key may have, and creating, editing, rolling and revoking one. Named
// api-keys so it never reads as keys.ts, the data kit's key factory.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Created, HubKey, KeyList, Rolled, ScopeList } from '@server/hub/keys/schemas';
import { api } from '../lib/api';
import { resourceKeys } from './keys';

export type { Created, HubKey, Rolled };

export const apiKeyKeys = { ...resourceKeys('keys'), scopes: () => ['keys', 'scopes'] as const };

export const apiKeyListQuery = () =>
  queryOptions({
    queryKey: apiKeyKeys.list({}),
    queryFn: () => api.get<KeyList>('/hub/api/keys'),
  });

/** The scopes and what each lets a key do: fixed while the server runs. */
export const keyScopesQuery = () =>
  queryOptions({
    queryKey: apiKeyKeys.scopes(),
    queryFn: () => api.get<ScopeList>('/hub/api/keys/scopes'),
    staleTime: Infinity,
  });

function useRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: apiKeyKeys.lists() });
}

export function useCreateKey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { name: string; scopes: string[]; expires_at: string | null; monthly_spend_cap_micros: number | null }) => api.post<Created>('/hub/api/keys', body),
    onSuccess: refresh,
  });
}

export function useEditKey(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { name: string; monthly_spend_cap_micros: number | null }) => api.patch(`/hub/api/keys/${id}`, body),
    onSuccess: refresh,
  });
}

export function useRevokeKey(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => api.post(`/hub/api/keys/${id}/revoke`), onSuccess: refresh });
}

/** A new key with the same scopes, cap and expiry; the old one lasts the grace. */
export function useRollKey(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (grace: string) => api.post<Rolled>(`/hub/api/keys/${id}/roll`, { grace }), onSuccess: refresh });
}
