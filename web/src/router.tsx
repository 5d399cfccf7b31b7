// URLs: the public pages (set-up, sign-in, set-password), the account picker, and every screen
// of routes.tsx inside the signed-in shell. A signed-out visit to a screen goes to sign-in and
// comes back after it (?next=).
import { Suspense, lazy, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { Shell } from './components/Shell';
import { PageHeader } from './components/PageHeader';
import { ErrorNotice, Loading, OwnersOnly } from './components/states';
import { isAdmin, SessionProvider, useSession, useSessionQuery } from './lib/session';
import { SCREENS, type Screen } from './routes';
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

// One lazy component per screen, made once: a lazy() made during render is thrown away with a
// render that suspends before it commits (a route change is a transition), so the next attempt
// would make another, suspend again, and the new page would never show.
const PAGES = new Map(SCREENS.map((s) => [s.load, lazy(s.load)]));

function LazyScreen({ screen }: { screen: Screen }) {
  const Page = PAGES.get(screen.load)!;
  const admin = isAdmin(useSession());
  // An owners-and-admins screen is not even loaded for anyone else: one state in its place and
  // no request the server would refuse (the menu hides these screens; a typed URL lands here).
  if (screen.admin && !admin) return <AdminOnlyScreen title={screen.nav ?? 'Owners and admins only'} />;
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

function AdminOnlyScreen({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <OwnersOnly what={`Only they can open ${title} in this account.`} />
    </>
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
      // The first screen is home; with none registered the shell still opens (never back to the picker, which comes here).
      { index: true, element: SCREENS[0] ? <Navigate to={`/${SCREENS[0].path}`} replace /> : <h1>Switchboard</h1> },
      ...SCREENS.map((s) => ({ path: s.path, element: <LazyScreen screen={s} /> })),
      { path: '*', element: <ErrorNotice error={new Error('No page at this address.')} /> },
    ],
  },
]);
