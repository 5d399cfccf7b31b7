// The hub's pages: the built app at / and at every app URL, for a browser asking for HTML, with
// the security headers (CSP without inline script, never framed, nosniff, a referrer policy);
// an API client's GET / and every server path (/v1, /hub/api, /openapi.json…) never get the app;
// SWITCHBOARD_HUB=false serves neither the pages nor the hub's API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/hub/static.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { HUB_ORIGIN } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
let t: TestApp;
beforeAll(async () => {
  // The app must have been built (npm ci builds it through prepare); a missing build is a failure here, not a skip.
  expect(fs.existsSync(path.join(WEB_DIST, 'index.html')), 'web/dist is not built: npx vite build web').toBe(true);
  t = await testApp();
});
afterAll(() => t?.close());

function expectPageHeaders(h: Record<string, unknown>): void {
  const csp = String(h['content-security-policy']);
  expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp.match(/script-src[^;]*/)![0]).not.toContain('unsafe-inline');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('same-origin');
}

describe('hub pages', () => {
  it('serve the app at / and at app URLs to a browser, with the security headers and no inline script', async () => {
    for (const url of ['/', '/sign-in?next=%2Fruns', '/setup', '/set-password?token=abc', '/accounts', '/runs/0190f0f0-0000-7000-8000-000000000000']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expectPageHeaders(res.headers);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
      // Every script is a file of ours; none carries code inline.
      for (const m of res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        expect(m[1]).toMatch(/src="\/assets\//);
        expect(m[2].trim()).toBe('');
      }
    }
  });

  it('serve the assets with the same headers, cached for good', async () => {
    const index = (await t.app.inject({ method: 'GET', url: '/', headers: HTML })).body;
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1];
    const res = await t.app.inject({ method: 'GET', url: js });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expectPageHeaders(res.headers);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answer an API client (no Accept text/html) with the JSON 404', async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }]) {
      expectError(await t.app.inject({ method: 'GET', url: '/', headers }), 404, 'not_found', 'route_not_found');
      expectError(await t.app.inject({ method: 'GET', url: '/runs', headers }), 404, 'not_found', 'route_not_found');
    }
  });

  it('never serve the app on a server path, even to a browser', async () => {
    for (const url of ['/v1/nothing-here', '/v1', '/hub/api/nothing-here', '/hub/api', '/hooks/x', '/openapi.json/x', '/healthz/x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: HTML });
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.body, url).not.toContain('<div id="root">');
    }
    // /v1 still wants its key; /v1 itself is never HTML.
    const v1 = await t.app.inject({ method: 'GET', url: '/v1/workflows', headers: HTML });
    expectError(v1, 401, 'authentication', 'invalid_api_key');
    // A POST to an app URL is not a page either.
    expect((await t.app.inject({ method: 'POST', url: '/runs', headers: HTML })).headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('SWITCHBOARD_HUB=false', () => {
  it('serves neither the pages nor the hub API; /v1 is unchanged', async () => {
    const off = await testApp({ hub: false });
    try {
      expectError(await off.app.inject({ method: 'GET', url: '/', headers: HTML }), 404, 'not_found', 'route_not_found');
      expectError(await off.app.inject({ method: 'GET', url: '/setup', headers: HTML }), 404, 'not_found', 'route_not_found');
      expectError(await off.app.inject({ method: 'GET', url: '/hub/api/setup' }), 404, 'not_found', 'route_not_found');
      const signIn = await off.app.inject({ method: 'POST', url: '/hub/api/session', headers: { origin: HUB_ORIGIN }, payload: { email: 'a@b.example', password: 'x' } });
      expect(signIn.statusCode).toBe(404);
      const doc = (await off.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/hub/'))).toEqual([]);
      expectError(await off.app.inject({ method: 'GET', url: '/v1/workflows' }), 401, 'authentication', 'invalid_api_key');
    } finally {
      await off.close();
    }
  });
});
