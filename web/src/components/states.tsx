// The three states every list and page shows besides its data: loading, empty, error. An error
// shows the server's message and its request id (what a user quotes to the operator).
import type { ReactNode } from 'react';
import { HubError } from '../lib/api';

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
  const message = e ? e.message : error instanceof Error ? error.message : String(error);
  return (
    <div className="notice notice-error" role="alert">
      <p>{message}</p>
      {e && (
        <p className="notice-meta">
          {e.code}
          {e.param ? ` (${e.param})` : ''}
          {e.requestId ? <> · request id <code>{e.requestId}</code></> : null}
        </p>
      )}
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
