// Every area of the hub's API, registered under /hub/api by hub/plugin.ts. One line per area: an
// area's routes live in src/hub/<area>/routes.ts and export one registrar.
import type { AppDeps } from '../http/deps.js';
import type { App } from '../http/route-kit.js';
import { registerHubAuditRoutes } from './audit/routes.js';
import { registerHubSessionRoutes } from './session/routes.js';
import { registerHubSettingsRoutes } from './settings/routes.js';
import { registerHubUserRoutes } from './users/routes.js';
import { registerHubContactRoutes } from './contacts/routes.js';
import { registerHubUsageRoutes } from './usage/routes.js';

export type HubRegistrar = (hub: App, deps: AppDeps) => void;

export const HUB_AREAS: readonly HubRegistrar[] = [
  registerHubSessionRoutes,
  registerHubUserRoutes,
  registerHubSettingsRoutes,
  registerHubAuditRoutes,
  registerHubContactRoutes,
  registerHubUsageRoutes,
];
