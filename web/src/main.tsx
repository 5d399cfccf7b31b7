// The hub's entry: the query client, the router, the signed-in gate.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { HubError } from './lib/api';
import { router } from './router';
import './styles.css';

const client = new QueryClient({
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
