// Who is signed in, in which account, with which role: GET /hub/api/session, shared by every page.
import { createContext, useContext, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { HubSession, HubSessionState, SessionAccount as HubSessionAccount } from '@server/hub/session/schemas';
import { api, setCsrfToken } from './api';

// The server's shapes (src/hub/session/schemas.ts), never retyped here.
export type Session = HubSession;
export type SessionAccount = HubSessionAccount;
export type Role = SessionAccount['role'];

/**
 * Refusals that mean the session itself changed under the page (signed out, account closed, made
 * read-only): the session is asked for again, so the shell sends the user on or shows the banner.
 */
export const SESSION_CHANGED_CODES: ReadonlySet<string> = new Set(['not_signed_in', 'account_not_chosen', 'account_closed', 'account_suspended', 'subscription_inactive']);

export const SESSION_KEY = ['session'] as const;

/**
 * The session, or null when nobody is signed in. Asked of /session/state, which answers a signed-out
 * visitor 200 (signed_in false): a sign-in page load logs no failed request. Errors go to the page.
 */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<Session | null> => {
      const { session } = await api.get<HubSessionState>('/hub/api/session/state');
      setCsrfToken(session?.csrf_token ?? null);
      return session;
    },
    staleTime: 60_000,
  });
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The signed-in session inside the app shell (never null there). */
export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the signed-in shell');
  return s;
}

/** Owners and admins manage keys, users and settings; the server checks it too. */
export function isAdmin(s: Session): boolean {
  return s.account?.role === 'owner' || s.account?.role === 'admin';
}
