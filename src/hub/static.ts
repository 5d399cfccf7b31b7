// The hub's pages: the built single-page app (web/dist) at /, with the HTML for every app URL
// that is not a file (the app routes in the browser), and the security headers every page and
// asset carries. Paths the server answers itself (/v1, /hub/api, /hooks, /inbound, /openapi.json,
// /healthz, /readyz) never fall back to the app.
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { AppPages } from '../http/app.js';
import type { App } from '../http/route-kit.js';
import { PACKAGE_ROOT } from '../code-location.js';

/** web/dist beside src/ and dist/ alike. */
export const WEB_DIST = path.join(PACKAGE_ROOT, 'web', 'dist');

/**
 * No inline script anywhere (Vite's build has none); styles may be inline (React style props,
 * sanitised page HTML in previews); rendered user HTML only in sandboxed iframes; never framed.
 */
export const HUB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const HUB_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': HUB_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
});

const SERVER_PATHS = /^\/(v1|hub\/api|hooks|inbound|unsubscribe|openapi\.json|healthz|readyz)(\/|$)/;

/** The path as the router saw it (percent-decoded), or null when it does not decode. */
function decodedPath(url: string): string | null {
  try {
    const [path = ''] = url.split('?');
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The hub's pages: the kit's app pages (http/app.ts), the built web app. */
export type HubPages = AppPages;

/** Registers the built files; null (and nothing registered) when web/dist was not built. */
export async function registerHubPages(app: App): Promise<HubPages | null> {
  const index = path.join(WEB_DIST, 'index.html');
  if (!fs.existsSync(index)) return null;
  await app.register(fastifyStatic, {
    root: WEB_DIST,
    prefix: '/',
    // Only the files that exist get routes; other paths reach the not-found handler, which sends
    // the app's HTML for app URLs and the JSON 404 for the rest.
    wildcard: false,
    // `/` is an app URL like any other: answered by the fallback below, only to a browser asking
    // for HTML, so an API client's GET / still gets the JSON 404.
    index: false,
    immutable: false,
    // The build writes .br and .gz beside each text file (web/vite.config.ts): a browser that
    // accepts one gets it (Content-Encoding, Vary: Accept-Encoding), any other client the file
    // itself. Compressed once at build time, not per request; index.html through sendApp too.
    preCompressed: true,
    setHeaders: (res, file) => {
      for (const [k, v] of Object.entries(HUB_PAGE_HEADERS)) res.header(k, v);
      // Hashed asset names never change content: cache them for a year; the HTML never.
      res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return {
    isAppUrl: (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      if (!(request.headers.accept ?? '').includes('text/html')) return false;
      const p = decodedPath(request.url);
      return p !== null && !SERVER_PATHS.test(p) && !/\.[a-z0-9]+$/i.test(p);
    },
    sendApp: (reply) => reply.headers(HUB_PAGE_HEADERS).header('cache-control', 'no-cache').sendFile('index.html'),
  };
}
