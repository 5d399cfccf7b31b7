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
  // Home first: the first screen is the hub's home (the getting-started checklist).
  { path: 'home', nav: 'Home', group: 'Work', load: () => import('./pages/home/HomePage') },
  { path: 'runs', nav: 'Runs', group: 'Work', load: () => import('./pages/runs/RunsPage') },
  { path: 'runs/:id', load: () => import('./pages/runs/RunPage') },
  { path: 'workflows', nav: 'Workflows', group: 'Work', load: () => import('./pages/workflows/WorkflowsPage') },
  { path: 'workflows/:id', load: () => import('./pages/workflows/WorkflowPage') },
  // New: a template or a blank canvas (the builder's own new mode, on its own path).
  { path: 'workflows/new', load: () => import('./pages/workflows/NewWorkflowPage') },
  // The builder (and @xyflow/react with it) loads only on these two routes, and not on a phone.
  { path: 'workflows/new/blank', load: () => import('./pages/workflow-builder/BuilderRoute') },
  { path: 'workflows/:id/build', load: () => import('./pages/workflow-builder/BuilderRoute') },
  { path: 'contacts', nav: 'Contacts', group: 'Audience', load: () => import('./pages/contacts/ContactsPage') },
  { path: 'contacts/new', load: () => import('./pages/contacts/NewContactPage') },
  { path: 'contacts/:id', load: () => import('./pages/contacts/ContactPage') },
  { path: 'messages', nav: 'Messages', group: 'Audience', load: () => import('./pages/messages/MessagesPage') },
  { path: 'messages/:id', load: () => import('./pages/messages/MessagePage') },
  { path: 'automation-runs/:id', load: () => import('./pages/automation-runs/AutomationRunPage') },
  { path: 'automations', nav: 'Automations', group: 'Work', load: () => import('./pages/automations/AutomationsPage') },
  { path: 'automations/new', load: () => import('./pages/automation-builder/NewAutomationPage') },
  { path: 'automations/:id', load: () => import('./pages/automations/AutomationPage') },
  { path: 'automations/:id/build', load: () => import('./pages/automation-builder/AutomationBuilder') },
  { path: 'usage', nav: 'Usage', group: 'Account', load: () => import('./pages/usage/UsagePage') },
  { path: 'content', nav: 'Content', group: 'Content', load: () => import('./pages/content/ContentProjects') },
  { path: 'content/:projectId', load: () => import('./pages/content/ProjectItems') },
  { path: 'content/:projectId/new', load: () => import('./pages/content/NewPage') },
  { path: 'items/:id', load: () => import('./pages/content/ItemPage') },
  { path: 'work', nav: 'Work management', group: 'Content', load: () => import('./pages/work/WorkProjects') },
  { path: 'work/:projectId', load: () => import('./pages/work/WorkProject') },
  { path: 'work/:projectId/new', load: () => import('./pages/work/NewWorkItem') },
  { path: 'work/:projectId/items/:itemKey', load: () => import('./pages/work/WorkItemPage') },
  { path: 'keys', nav: 'API keys', group: 'Account', admin: true, load: () => import('./pages/keys/KeysPage') },
  { path: 'users', nav: 'Users', group: 'Account', admin: true, load: () => import('./pages/users/UsersPage') },
  { path: 'settings', nav: 'Settings', group: 'Account', load: () => import('./pages/settings/SettingsPage') },
  { path: 'audit', nav: 'Audit log', group: 'Account', admin: true, load: () => import('./pages/audit/AuditPage') },
  // Your own name, email and password: from the top bar's name, not the menu.
  { path: 'profile', load: () => import('./pages/profile/ProfilePage') },
];
