// The signed-in frame: skip link, the account's name and switcher, the menu, sign-out, and the
// page in <main> under the banner of a read-only account. The menu lists what the user's role may open.
// On a phone the menu folds behind a "Menu" button (closed on every new screen), so a page starts
// at the top of the screen instead of under a block of links.
import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../lib/api';
import { isAdmin, SESSION_KEY, useSession } from '../lib/session';
import { SCREENS, type Screen } from '../routes';
import { AccountStateBanner } from './AccountStateBanner';
import { DevModeBanner } from './dev/DevModeBanner';
import { RunsNavLabel } from './runs/RunsNavLabel';
import { ErrorNotice } from './states';

const GROUPS: NonNullable<Screen['group']>[] = ['Work', 'Audience', 'Content', 'Account'];

export function Shell() {
  const session = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  const signOut = useMutation({
    mutationFn: () => api.delete('/hub/api/session'),
    onSuccess: () => {
      // Signed out: the shell leaves. Its cached data is dropped by the sign-in page, once no
      // screen of the shell is open to ask for it again (and be refused with a 401).
      client.setQueryData(SESSION_KEY, null);
      void navigate('/sign-in');
    },
  });
  const admin = isAdmin(session);
  const visible = SCREENS.filter((s) => s.nav && (!s.admin || admin));
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="button-secondary menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
        <span className="brand">Switchboard</span>
        <span className="account-name">{session.account?.name}</span>
        {session.accounts.length > 1 && (
          <NavLink to="/accounts" className="topbar-link">
            Switch account
          </NavLink>
        )}
        <NavLink to="/profile" className="user topbar-link">
          <span className="visually-hidden">Your profile: </span>
          {session.email} · {session.account?.role}
        </NavLink>
        <button type="button" className="button-secondary sign-out" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      </header>
      <div className="layout">
        <nav id="main-nav" className={menuOpen ? 'sidebar sidebar-open' : 'sidebar'} aria-label="Main">
          {GROUPS.map((g) => {
            const items = visible.filter((s) => s.group === g);
            if (!items.length) return null;
            return (
              <div key={g} className="nav-group">
                <h2 className="nav-heading">{g}</h2>
                <ul>
                  {items.map((s) => (
                    <li key={s.path}>
                      <NavLink to={`/${s.path}`}>{s.path === 'runs' ? <RunsNavLabel label={s.nav ?? ''} /> : s.nav}</NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
        <main id="main" tabIndex={-1}>
          <AccountStateBanner account={session.account} />
          <DevModeBanner />
          <ErrorNotice error={signOut.error} />
          <Outlet />
        </main>
      </div>
    </div>
  );
}
