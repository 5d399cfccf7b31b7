// Who is signed in, in which account, with which role: GET /hub/api/session, shared by every page.
import { createContext, useContext, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { HubSession, SessionAccount as HubSessionAccount } from '@server/hub/session/schemas';
import { api, HubError, setCsrfToken } from './api';

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

/** The session, or null when nobody is signed in (401). Other errors are thrown to the page. */
export function useSessionQuery() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<Session | null> => {
      try {
        const s = await api.get<Session>('/hub/api/session');
        setCsrfToken(s.csrf_token);
        return s;
      } catch (err) {
        if (err instanceof HubError && err.status === 401) {
          setCsrfToken(null);
          return null;
        }
        throw err;
      }
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
