// The hub's JSON API: every area's routes under /hub/api, behind the hub's own request hook
// (sessions, access, CSRF and Origin). Same error envelope, catalogue and validation as /v1.
import '@fastify/cookie';
import type { HubAccess } from '../domain/hub.js';
import type { AppDeps } from '../http/deps.js';
import type { App } from '../http/route-kit.js';
import { HUB_AREAS } from './areas.js';
import { installHubAuth } from './auth.js';

export const HUB_API_PREFIX = '/hub/api';
/** The OpenAPI security scheme of hub routes (declared in http/openapi.ts). */
export const HUB_SESSION_SCHEME = 'hubSession';

/** One hub route as registered: what the security tests walk (every route, whoever added it). */
export interface HubRouteEntry {
  method: string;
  /** The full path pattern, e.g. /hub/api/keys/:id. */
  url: string;
  access: HubAccess;
  operationId: string | undefined;
}

const ROUTES = new WeakMap<object, HubRouteEntry[]>();

/** The hub routes of an app built by buildApp (src/app.ts); empty when the hub is off. */
export function hubRoutesOf(app: App): readonly HubRouteEntry[] {
  return ROUTES.get(app) ?? [];
}

export async function registerHubApi(app: App, deps: AppDeps): Promise<void> {
  const table: HubRouteEntry[] = [];
  ROUTES.set(app, table);
  await app.register(
    async (hub: App) => {
      hub.addHook('onRoute', (r) => {
        const access = r.config?.hub?.access;
        // A route without an access declaration is refused by the hook at request time; here it
        // fails at start instead, so it cannot ship.
        if (!access) throw new Error(`hub route ${String(r.method)} ${r.url} declares no access (its options: hubRoute(access, ...))`);
        // Documented as what it is: the session cookie, not /v1's API key (public routes need neither).
        if (r.schema) (r.schema as { security?: unknown }).security = access === 'public' ? [] : [{ [HUB_SESSION_SCHEME]: [] }];
        for (const method of [r.method].flat()) {
          if (method !== 'HEAD') table.push({ method, url: r.url, access, operationId: r.schema?.operationId });
        }
      });
      installHubAuth(hub, deps);
      for (const register of HUB_AREAS) register(hub, deps);
    },
    { prefix: HUB_API_PREFIX },
  );
}
