// "Your profile": one's own user in the picked account, and changing its name, password and email.
// A new name or email shows in the Users list and the audit log, so those refresh too.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordChanged, PendingEmail, Profile } from '@server/hub/profile/schemas';
import { api } from '../lib/api';
import { auditKeys } from './audit';
import { resourceKeys } from './keys';
import { userKeys } from './users';

export type { PasswordChanged, PendingEmail, Profile };

export const profileKeys = resourceKeys('profile');

export const profileQuery = () => queryOptions({ queryKey: profileKeys.all, queryFn: () => api.get<Profile>('/hub/api/profile') });

function useRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: auditKeys.all });
    void client.invalidateQueries({ queryKey: userKeys.all });
    return client.invalidateQueries({ queryKey: profileKeys.all });
  };
}

export function useRename() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (name: string) => api.patch('/hub/api/profile', { name }), onSuccess: refresh });
}

/** Other sessions of yours are signed out; this one stays. */
export function useChangePassword() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (b: { current_password: string; new_password: string }) => api.put<PasswordChanged>('/hub/api/profile/password', b),
    onSuccess: refresh,
  });
}

/** Sends a confirmation link to the new address; the email changes when it is used. */
export function useRequestEmailChange() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (b: { email: string; current_password: string }) => api.post<PendingEmail>('/hub/api/profile/email', b),
    onSuccess: refresh,
  });
}
