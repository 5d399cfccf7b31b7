// URLs: the public pages (set-up, sign-in, set-password), the account picker, and every screen
// of routes.tsx inside the signed-in shell. A signed-out visit to a screen goes to sign-in and
// comes back after it (?next=).
import { Suspense, lazy, useMemo, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { Shell } from './components/Shell';
import { ErrorNotice, Loading } from './components/states';
import { SessionProvider, useSessionQuery } from './lib/session';
import { SCREENS } from './routes';
import { PUBLIC_PAGES } from './public-pages';

/** Signed in with an account picked, or off to sign-in / the picker. */
function SignedIn({ children }: { children: ReactNode }) {
  const q = useSessionQuery();
  const location = useLocation();
  if (q.isPending) return <Loading what="Checking your session" />;
  if (q.error) return <main id="main"><ErrorNotice error={q.error} /></main>;
  if (!q.data) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (!q.data.account) return <Navigate to={`/accounts?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <SessionProvider session={q.data}>{children}</SessionProvider>;
}

const LAZY = new Map(SCREENS.map((s) => [s.load, lazy(s.load)]));
function LazyScreen({ load }: { load: (typeof SCREENS)[number]['load'] }) {
  const Page = useMemo(() => LAZY.get(load)!, [load]);
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

export const router = createBrowserRouter([
  ...PUBLIC_PAGES,
  {
    path: '/',
    element: (
      <SignedIn>
        <Shell />
      </SignedIn>
    ),
    children: [
      { index: true, element: <Navigate to={SCREENS[0] ? `/${SCREENS[0].path}` : '/accounts'} replace /> },
      ...SCREENS.map((s) => ({ path: s.path, element: <LazyScreen load={s.load} /> })),
      { path: '*', element: <ErrorNotice error={new Error('No page at this address.')} /> },
    ],
  },
]);
