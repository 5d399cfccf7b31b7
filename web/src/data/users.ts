// Users: the people in the account (oldest first, one answer, no pages), inviting one, changing a
// role or an email, sending a new set-password link, removing one. Every write refreshes the list (and the audit log, which records it).
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { HubUser, Invitation, UserList } from '@server/hub/users/schemas';
import { api } from '../lib/api';
import { auditKeys } from './audit';
import { resourceKeys } from './keys';

export type { HubUser, Invitation };

export const userKeys = resourceKeys('users');

export const userListQuery = () =>
  queryOptions({
    queryKey: userKeys.list({}),
    queryFn: () => api.get<UserList>('/hub/api/users'),
  });

function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: auditKeys.all });
    return client.invalidateQueries({ queryKey: userKeys.all });
  };
}

export function useInviteUser() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { email: string; role: string; name?: string }) => api.post<Invitation>('/hub/api/users', body),
    onSuccess: refresh,
  });
}

/** Refreshes whatever the answer: a refused change shows the role as it stands. */
export function useSetRole(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (role: string) => api.patch<HubUser>(`/hub/api/users/${id}`, { role }), onSettled: refresh });
}

export function useRemoveUser(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => api.delete(`/hub/api/users/${id}`), onSettled: refresh });
}

/** A new set-password link for the user (shown once, like an invitation's); earlier ones stop working. */
export function useSendSetPasswordLink(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => api.post<Invitation>(`/hub/api/users/${id}/set-password-link`), onSuccess: refresh });
}

export function useSetUserEmail(id: string) {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (email: string) => api.put<HubUser>(`/hub/api/users/${id}/email`, { email }), onSuccess: refresh });
}
