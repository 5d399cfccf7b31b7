// The session's writes outside the signed-in shell (set-up, sign-in, a set-password link, an
// account picked) and what those pages read first. Each write answers with the new session, which
// becomes the cached one (and its CSRF token the one sent), so the shell opens without asking again.
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { SetupState } from '@server/hub/setup/schemas';
import type { EmailConfirmed } from '@server/hub/profile/schemas';
import type { ForgotAnswer, LinkTarget } from '@server/hub/set-password/schemas';
import { api, setCsrfToken } from '../lib/api';
import { SESSION_KEY, type Session } from '../lib/session';
import { resourceKeys } from './keys';

export type { EmailConfirmed, ForgotAnswer, LinkTarget, SetupState };

export const setupKeys = resourceKeys('setup');
export const linkKeys = resourceKeys('set-password');
export const forgotKeys = resourceKeys('forgot-password');
/** What the pages outside the shell read: no account's data, kept when that is dropped. */
const OUTSIDE_THE_SHELL: ReadonlySet<unknown> = new Set([SESSION_KEY[0], setupKeys.all[0], linkKeys.all[0], forgotKeys.all[0]]);

/** Whether this hub still needs its first-run set-up, and whether that asks for the token. */
export const setupQuery = () => queryOptions({ queryKey: setupKeys.all, queryFn: () => api.get<SetupState>('/hub/api/setup') });

/** Whom a set-password link is for (410 invalid_link when used, unknown or expired). */
export const linkTargetQuery = (token: string) =>
  queryOptions({
    queryKey: linkKeys.detail(token),
    queryFn: () => api.get<LinkTarget>(`/hub/api/set-password/${encodeURIComponent(token)}`),
    enabled: token !== '',
  });

/**
 * Drops every cached answer of the signed-in shell: what one person (or account) read is never shown
 * to the next. Called where no screen of the shell is open to ask again (a new session, the
 * sign-in page), so it never sets off a request the server would refuse.
 */
export function forgetAccountData(client: QueryClient): void {
  client.removeQueries({ predicate: (q) => !OUTSIDE_THE_SHELL.has(q.queryKey[0]) });
}

export function rememberSession(client: QueryClient, s: Session): void {
  forgetAccountData(client);
  setCsrfToken(s.csrf_token);
  client.setQueryData(SESSION_KEY, s);
}

function useSessionWrite<V>(call: (v: V) => Promise<Session>, after?: (client: QueryClient) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (s) => {
      rememberSession(client, s);
      after?.(client);
    },
  });
}

export const useSignIn = () => useSessionWrite((b: { email: string; password: string }) => api.post<Session>('/hub/api/session', b));

export const usePickAccount = () => useSessionWrite((accountId: string) => api.put<Session>('/hub/api/session/account', { account_id: accountId }));

export const useSetPassword = () => useSessionWrite((b: { token: string; password: string }) => api.post<Session>('/hub/api/set-password', b));

/** The first account and its owner; the hub needs no set-up any more. */
export const useSetUp = () =>
  useSessionWrite(
    (b: Record<string, string>) => api.post<Session>('/hub/api/setup', b),
    (client) => client.setQueryData<SetupState>(setupKeys.all, { needed: false, token_required: false }),
  );

/** Whether this hub can email a new password link (without real email: ask an owner or admin). */
export const forgotQuery = () => queryOptions({ queryKey: forgotKeys.all, queryFn: () => api.get<ForgotAnswer>('/hub/api/forgot-password') });

/** Asks for a new password link; the answer is the same whether or not the address is anyone's. */
export const useForgotPassword = () => useMutation({ mutationFn: (email: string) => api.post<ForgotAnswer>('/hub/api/forgot-password', { email }) });

/** Uses a link that confirms a new email (from the email sent to it); a signed-in session shows the new one. */
export function useConfirmEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<EmailConfirmed>('/hub/api/confirm-email', { token }),
    onSuccess: () => client.invalidateQueries({ queryKey: SESSION_KEY }),
  });
}
