// The composition root: the app with every route, buildApp(deps). The HTTP kit (src/http) builds
// the pipeline and knows no resource; this module, above the kit, the API (src/api) and the hub
// (src/hub), mounts /v1's resources and the hub on it. The listener lives in the serve command;
// tests use inject().
import { registerEnrollmentRoutes } from './api/enrollments/routes.js';
import { registerAutomationRunRoutes } from './api/automation-runs/routes.js';
import { registerAutomationRoutes } from './api/automations/routes.js';
import { registerRunRoutes } from './api/runs/routes.js';
import { registerWorkflowRoutes } from './api/workflows/routes.js';
import { registerHookRoutes } from './api/hooks/routes.js';
import { registerInboundRoutes } from './api/inbound/routes.js';
import { registerContactRoutes } from './api/contacts/routes.js';
import { registerProjectRoutes } from './api/projects/routes.js';
import { registerItemRoutes } from './api/items/routes.js';
import { registerWorkmgmtRoutes } from './api/workmgmt/routes.js';
import { registerUsageRoutes } from './api/usage/routes.js';
import { registerHubApi } from './hub/plugin.js';
import { registerHubPages } from './hub/static.js';
import { buildHttpApp, type App } from './http/app.js';
import type { AppDeps } from './http/deps.js';

export type { App } from './http/app.js';

export async function buildApp(deps: AppDeps): Promise<App> {
  return buildHttpApp(deps, async (app) => {
    // Unsubscribe links and the SMS provider's webhook: outside /v1, no API key (own checks).
    await registerInboundRoutes(app, deps);
    registerHookRoutes(app, deps);
    await app.register(
      async (v1: App) => {
        registerWorkflowRoutes(v1, deps);
        registerRunRoutes(v1, deps);
        registerAutomationRoutes(v1, deps);
        registerAutomationRunRoutes(v1, deps);
        registerEnrollmentRoutes(v1, deps);
        registerProjectRoutes(v1, deps);
        registerItemRoutes(v1, deps);
        registerUsageRoutes(v1, deps);
        registerContactRoutes(v1, deps);
        registerWorkmgmtRoutes(v1, deps);
      },
      { prefix: '/v1' },
    );
    if (!deps.config.hub) return null;
    await registerHubApi(app, deps);
    return registerHubPages(app);
  });
}
