// The three states every list and page shows besides its data: loading, empty, error. An error
// is said in words for people with its next step (lib/error-words.ts); its code and request id
// (what a user quotes to the operator) wait behind "Details".
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { HubError } from '../lib/api';
import { errorWords } from '../lib/error-words';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const e = error instanceof HubError ? error : null;
  const words = e ? errorWords(e) : { message: error instanceof Error ? error.message : String(error), details: false };
  return (
    <div className="notice notice-error" role="alert">
      <p>{words.message}</p>
      {words.next && <p>{words.next.to ? <Link to={words.next.to}>{words.next.text}</Link> : words.next.text}</p>}
      {e && words.details && (
        // What to quote to the operator, out of the way until asked for.
        <details className="notice-meta">
          <summary>Details</summary>
          <p>
            Code <code>{e.code}</code>
            {e.param ? <> for <code>{e.param}</code></> : null}
            {e.requestId ? <> · request id <code>{e.requestId}</code></> : null}
          </p>
          {e.message !== words.message && <p>{e.message}</p>}
        </details>
      )}
    </div>
  );
}

/** A screen or action for owners and admins, shown to anyone else instead of asking (and being refused). */
export function OwnersOnly({ what }: { what: string }) {
  return (
    <div className="state state-owners-only" role="status">
      <p>
        <strong>Owners and admins only.</strong> {what}
      </p>
      <p>If you need it, ask an owner or admin of this account: they can change your role.</p>
    </div>
  );
}

/** A query's three states around its data: <QueryState q={query} empty="No keys yet.">{(data) => …}</QueryState>. */
export function QueryState<T>({
  q,
  isEmpty,
  empty,
  children,
}: {
  q: { isPending: boolean; error: unknown; data: T | undefined };
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNotice error={q.error} />;
  const data = q.data as T;
  if (isEmpty && isEmpty(data)) return <Empty>{empty ?? 'Nothing here yet.'}</Empty>;
  return <>{children(data)}</>;
}
