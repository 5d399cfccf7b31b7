// The hub's JSON API: every area's routes under /hub/api, behind the hub's own request hook
// (sessions, access, CSRF and Origin). Same error envelope, catalogue and validation as /v1.
import '@fastify/cookie';
import type { AppDeps } from '../http/deps.js';
import type { App } from '../http/route-kit.js';
import { HUB_AREAS } from './areas.js';
import { installHubAuth } from './auth.js';

export const HUB_API_PREFIX = '/hub/api';

export async function registerHubApi(app: App, deps: AppDeps): Promise<void> {
  await app.register(
    async (hub: App) => {
      installHubAuth(hub, deps);
      for (const register of HUB_AREAS) register(hub, deps);
    },
    { prefix: HUB_API_PREFIX },
  );
}
