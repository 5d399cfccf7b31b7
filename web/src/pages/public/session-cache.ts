// Where the pages outside the shell send someone once a session exists (data/session.ts caches
// the new session itself).
import type { Session } from '../../lib/session';

/** A ?next= that stays on this hub (a path, never another origin); anything else goes home. */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}

/** Where a new session goes: the page asked for, or the account picker first when none is picked. */
export function afterSignIn(s: Session, next: string | null): string {
  const to = safeNext(next);
  return s.account ? to : `/accounts${to === '/' ? '' : `?next=${encodeURIComponent(to)}`}`;
}
