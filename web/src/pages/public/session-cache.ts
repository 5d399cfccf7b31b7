// After set-up, sign-in, a password set through a link or an account picked, the server answers
// with the new session: it becomes the cached session (and its CSRF token the one sent), so the
// shell opens at once, without asking the server again.
import type { QueryClient } from '@tanstack/react-query';
import { setCsrfToken } from '../../lib/api';
import { SESSION_KEY, type Session } from '../../lib/session';

export function rememberSession(client: QueryClient, s: Session): void {
  setCsrfToken(s.csrf_token);
  client.setQueryData(SESSION_KEY, s);
}

/** A ?next= that stays on this hub (a path, never another origin); anything else goes home. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** Where a new session goes: the page asked for, or the account picker first when none is picked. */
export function afterSignIn(s: Session, next: string | null): string {
  const to = safeNext(next);
  return s.account ? to : `/accounts${to === '/' ? '' : `?next=${encodeURIComponent(to)}`}`;
}
