// Every area of the hub's API, registered under /hub/api by hub/plugin.ts. One line per area: an
// area's routes live in src/hub/<area>/routes.ts and export one registrar (an area with a
// second screen of its own, such as the workflow builder, may add one more file and registrar).
import type { AppDeps } from '../http/deps.js';
import type { App } from '../http/route-kit.js';
import { registerHubAuditRoutes } from './audit/routes.js';
import { registerHubAutomationRunRoutes } from './automation-runs/routes.js';
import { registerHubAutomationBuilderRoutes } from './automations/builder-routes.js';
import { registerHubAutomationRoutes } from './automations/routes.js';
import { registerHubAutomationTestRoutes } from './automations/test-routes.js';
import { registerHubContactRoutes } from './contacts/routes.js';
import { registerHubContentRoutes } from './content/routes.js';
import { registerHubGettingStartedRoutes } from './getting-started/routes.js';
import { registerHubKeyRoutes } from './keys/routes.js';
import { registerHubMessageRoutes } from './messages/routes.js';
import { registerHubProfileRoutes } from './profile/routes.js';
import { registerHubRunRoutes } from './runs/routes.js';
import { registerHubSessionRoutes } from './session/routes.js';
import { registerHubForgotPasswordRoutes } from './set-password/forgot.js';
import { registerHubSetPasswordRoutes } from './set-password/routes.js';
import { registerHubSettingsRoutes } from './settings/routes.js';
import { registerHubSetupRoutes } from './setup/routes.js';
import { registerHubUsageRoutes } from './usage/routes.js';
import { registerHubUserRoutes } from './users/routes.js';
import { registerHubWorkRoutes } from './work/routes.js';
import { registerHubWorkflowBuilderRoutes } from './workflows/builder-routes.js';
import { registerHubWorkflowRoutes } from './workflows/routes.js';

export type HubRegistrar = (hub: App, deps: AppDeps) => void;

export const HUB_AREAS: readonly HubRegistrar[] = [
  // the front door
  registerHubSessionRoutes,
  registerHubSetupRoutes,
  registerHubSetPasswordRoutes,
  // Home
  registerHubGettingStartedRoutes,
  registerHubForgotPasswordRoutes,
  // Work
  registerHubRunRoutes,
  registerHubWorkflowRoutes,
  registerHubWorkflowBuilderRoutes,
  registerHubAutomationRoutes,
  registerHubAutomationBuilderRoutes,
  registerHubAutomationTestRoutes,
  registerHubAutomationRunRoutes,
  // Audience
  registerHubContactRoutes,
  registerHubMessageRoutes,
  // Content
  registerHubContentRoutes,
  registerHubWorkRoutes,
  // Account
  registerHubKeyRoutes,
  registerHubUserRoutes,
  registerHubSettingsRoutes,
  registerHubUsageRoutes,
  registerHubAuditRoutes,
  registerHubProfileRoutes,
];
