// Pages outside the signed-in shell: set-up (first run), sign-in, the account picker, set-password
// (one-time links), forgot password, and the confirmation of a new email. Each is its own URL, loaded on its route like the screens.
import { Suspense, lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { Loading } from './components/states';

function page(load: () => Promise<{ default: ComponentType }>): RouteObject['element'] {
  const Page = lazy(load);
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

export const PUBLIC_PAGES: RouteObject[] = [
  { path: '/setup', element: page(() => import('./pages/public/SetupPage')) },
  { path: '/sign-in', element: page(() => import('./pages/public/SignInPage')) },
  { path: '/accounts', element: page(() => import('./pages/public/AccountsPage')) },
  { path: '/set-password', element: page(() => import('./pages/public/SetPasswordPage')) },
  { path: '/forgot-password', element: page(() => import('./pages/public/ForgotPasswordPage')) },
  { path: '/confirm-email', element: page(() => import('./pages/public/ConfirmEmailPage')) },
];
