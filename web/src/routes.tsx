// The hub's screens: one entry per URL inside the signed-in shell. An entry with a `nav` label is
// in the menu; `admin` entries are for owners and admins only (the server refuses members too).
// Pages load on their route (lazy), so the initial bundle stays small.
import type { ComponentType } from 'react';

export interface Screen {
  path: string;
  /** The menu's text; none = not in the menu (a detail page). */
  nav?: string;
  /** The menu group. */
  group?: 'Work' | 'Audience' | 'Content' | 'Account';
  admin?: boolean;
  load: () => Promise<{ default: ComponentType }>;
}

export const SCREENS: Screen[] = [
  { path: 'users', nav: 'Users', group: 'Account', admin: true, load: () => import('./pages/users/UsersPage') },
  { path: 'settings', nav: 'Settings', group: 'Account', load: () => import('./pages/settings/SettingsPage') },
  { path: 'audit', nav: 'Audit log', group: 'Account', admin: true, load: () => import('./pages/audit/AuditPage') },
];
