// Credentials carried in URL paths outside /v1 never reach the request log (docs/architecture.md
// §6.1: "No API key, password or message body is ever logged"). Both are treated like API keys
// elsewhere: a webhook trigger's secret is shown once and stored only hashed, and an unsubscribe
// token is an HMAC credential that opts a contact out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhookHash } from '../../src/services/automations/store.js';
import { webhookHash } from '../../src/services/automations/webhook.js';
import { unsubscribeToken } from '../../src/delivery/unsubscribe.js';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { loggerOptions } from '../../src/cli/serve.js';
import { REQUEST_LOG_MSG } from '../../src/http/request-log.js';
import { loggableUrl } from '../../src/http/log-redaction.js';
import { createApp } from '../../src/server.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, seed } from './fixtures.js';

let t: TestApp;
let acme: AccountSeedResult;

beforeAll(async () => {
  t = await testApp();
  const s = await seed(t.db, {
    ...account('acme', { projects: ['site'] }),
    automations: [
      {
        ref: 'hooked',
        name: 'Hooked',
        project: 'site',
        status: 'published',
        trigger: { type: 'webhook', label: 'Webhook', config: {} },
        steps: [{ id: 'x', name: 'End', type: 'end', config: {} }],
      },
    ],
    contacts: [{ ref: 'ann', email: 'ann@example.org' }],
  });
  acme = s.acme;
});
afterAll(() => t?.close());

describe('secrets in URLs stay out of the logs', () => {
  it('a webhook secret and an unsubscribe token are never written to the log (as serve configures it)', async () => {
    const secret = 'WhSecretProbe_0123456789abcdefghijklmnopqrstu';
    expect(await setWebhookHash(t.db, acme.id, acme.automations.hooked, webhookHash(secret))).toBe(true);
    const token = await unsubscribeToken(t.db, acme.id, acme.contacts.ann);
    const lines: string[] = [];
    // The options `switchboard serve` gives the app, writing to memory.
    const app = await createApp(t.config, t.db, {
      logger: { ...loggerOptions(t.config), level: 'info', stream: { write: (s: string) => void lines.push(s) } } as never,
    });
    try {
      const hook = await app.inject({
        method: 'POST',
        url: `/hooks/automations/${secret}`,
        headers: { 'content-type': 'application/json' },
        payload: { email: 'hook@example.org' },
      });
      expect(hook.statusCode, hook.body).toBe(202);
      const unsub = await app.inject({ method: 'GET', url: `/unsubscribe/${token}?utm=x` });
      expect(unsub.statusCode).toBe(200);
      // A path that matches no route, and one that re-encodes the prefix (the router decodes it),
      // are masked too.
      expect((await app.inject({ method: 'POST', url: `/hooks/automations/${secret}/more` })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url: `/%75nsubscribe/${token}` })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
    // One line per request, written when its response has gone (src/http/request-log.ts).
    const requestLines = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === REQUEST_LOG_MSG);
    expect(requestLines.map((l) => l.status)).toEqual([202, 200, 404, 200]);
    for (const l of requestLines) expect(l.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const urls = requestLines.map((l) => l.url);
    expect(urls).toEqual([
      '/hooks/automations/[redacted]',
      '/unsubscribe/[redacted]?utm=x',
      '/hooks/automations/[redacted]',
      '/unsubscribe/[redacted]',
    ]);
    const log = lines.join('');
    expect(log).not.toContain(secret);
    expect(log).not.toContain(token);
    expect(log).not.toContain(secret.slice(0, 12));
  });
});

describe('loggableUrl', () => {
  it('keeps every other URL as sent', () => {
    expect(loggableUrl({ url: '/v1/workflows?limit=5', routeOptions: { url: '/v1/workflows' } })).toBe('/v1/workflows?limit=5');
    expect(loggableUrl({ url: '/v1/runs/abc', routeOptions: { url: '/v1/runs/:id' } })).toBe('/v1/runs/abc');
    expect(loggableUrl({ url: '/nowhere/at/all' })).toBe('/nowhere/at/all');
  });
});
