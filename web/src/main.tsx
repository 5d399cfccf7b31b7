// The hub's entry: the query client (which reads the session again when a refusal says it
// changed), the router, the signed-in gate.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { HubError } from './lib/api';
import { SESSION_CHANGED_CODES, SESSION_KEY } from './lib/session';
import { router } from './router';
import './styles.css';

/**
 * A refusal saying the session or the account changed under the page (signed out, account closed
 * or made read-only): everything on screen is read again, the session first, so the shell sends
 * the user on or shows the banner, and the page shows the account as it now is.
 */
function onRefusal(err: unknown): void {
  if (err instanceof HubError && SESSION_CHANGED_CODES.has(err.code)) {
    void client.invalidateQueries({ queryKey: SESSION_KEY }).then(() => client.invalidateQueries());
  }
}

const client: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onRefusal }),
  mutationCache: new MutationCache({ onError: onRefusal }),
  defaultOptions: {
    queries: {
      // A refusal (4xx) is an answer, not a glitch: shown at once, never retried.
      retry: (count, err) => !(err instanceof HubError && err.status >= 400 && err.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
