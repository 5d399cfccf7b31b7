// Saying what is real: GET /hub/api/settings/providers (the providers in use, development
// stand-ins marked, never a URL, host or secret), a message's kept_in_outbox read from the
// transport recorded when the sender settled it, and GET /hub/api/session/state, the page's
// session probe that answers a signed-out visitor 200 (no failed request in the console).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SESSION_COOKIE } from '../../src/domain/hub.js';
import { Sender } from '../../src/delivery/sender.js';
import { outboxTransport } from '../../src/delivery/transports/outbox.js';
import type { Transport } from '../../src/delivery/types.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient } from '../helpers/hub.js';
import { expectError } from '../http/fixtures.js';
import { enqueue } from '../delivery/support.js';
import { audienceWorld, type World } from './audience-support.js';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await testApp();
  w = await audienceWorld(t);
});
afterAll(() => t?.close());

describe('GET /hub/api/settings/providers', () => {
  it('names the development stand-ins the default configuration runs with, to members too', async () => {
    for (const c of [w.member, w.owner]) {
      const res = await c.get('/hub/api/settings/providers');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        llm: { provider: 'local', development: true },
        email: { provider: 'outbox', development: true },
        sms: { provider: 'outbox', development: true },
      });
    }
  });

  it('is refused signed out, and without an account picked', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/settings/providers' }), 401, 'authentication', 'not_signed_in');
    const unpicked = await hubClient(t, { accountId: null, userId: null, email: 'owner@acme.example', userIds: [w.s.acme.users.owner] });
    expectError(await unpicked.get('/hub/api/settings/providers'), 409, 'conflict', 'account_not_chosen');
  });

  it('names real providers without their URLs, hosts, users or secrets', async () => {
    const real = loadConfig({
      SWITCHBOARD_LLM_PROVIDER: 'openai-compatible',
      SWITCHBOARD_LLM_BASE_URL: 'http://llm-user:llm-SECRET@127.0.0.1:9/v1',
      SWITCHBOARD_LLM_API_KEY: 'sk-SECRET',
      SWITCHBOARD_EMAIL_TRANSPORT: 'smtp',
      SWITCHBOARD_SMTP_URL: 'smtp://mailer:smtp-SECRET@127.0.0.1:2525',
      SWITCHBOARD_SMS_TRANSPORT: 'http',
      SWITCHBOARD_SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms?key=sms-SECRET',
      SWITCHBOARD_SMS_WEBHOOK_TOKEN: 'token-SECRET',
    });
    const t2 = await testApp({ llm: real.llm, delivery: real.delivery });
    try {
      const w2 = await audienceWorld(t2);
      const res = await w2.member.get('/hub/api/settings/providers');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        llm: { provider: 'openai-compatible', development: false },
        email: { provider: 'smtp', development: false },
        sms: { provider: 'http', development: false },
      });
      expect(res.body).not.toMatch(/SECRET|127\.0\.0\.1|mailer|llm-user|:\/\//);
    } finally {
      await t2.close();
    }
  });
});

describe('a message kept in the outbox', () => {
  /** A transport that delivers (stands for smtp or http): its rows are not "kept". */
  const delivering: Transport = { name: 'smtp', development: false, send: async () => {} };

  it('is marked from the transport that settled it, whatever the configuration says now', async () => {
    const acme = w.s.acme.id;
    const kept = await enqueue(t.db, { accountId: acme, to: 'ann@example.org' });
    const s1 = new Sender({ db: t.db, transports: { email: outboxTransport(), sms: outboxTransport() }, concurrency: 1, pollMs: 60_000, sendTimeoutMs: 5_000, stuckAfterMs: 60_000, stopGraceMs: 1_000 });
    expect(await s1.sendBatch()).toBe(1);
    await s1.stop();
    const delivered = await enqueue(t.db, { accountId: acme, to: 'cy@example.org' });
    const s2 = new Sender({ db: t.db, transports: { email: delivering, sms: delivering }, concurrency: 1, pollMs: 60_000, sendTimeoutMs: 5_000, stuckAfterMs: 60_000, stopGraceMs: 1_000 });
    expect(await s2.sendBatch()).toBe(1);
    await s2.stop();
    const queued = await enqueue(t.db, { accountId: acme, to: 'dee@example.org' });

    const res = await w.member.get('/hub/api/messages');
    expect(res.statusCode, res.body).toBe(200);
    const byId = new Map(res.json().data.map((m: { id: string; status: string; kept_in_outbox: boolean }) => [m.id, [m.status, m.kept_in_outbox]]));
    expect(byId.get(kept.id)).toEqual(['sent', true]);
    expect(byId.get(delivered.id)).toEqual(['sent', false]);
    expect(byId.get(queued.id)).toEqual(['queued', false]);
    expect(res.body).not.toMatch(/ann@example\.org/);
  });
});

describe('GET /hub/api/session/state', () => {
  const state = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/hub/api/session/state', headers });

  it('answers a signed-out visitor 200 with nobody signed in, where GET /session answers 401', async () => {
    const res = await state();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ signed_in: false, session: null });
    expectError(await t.app.inject({ method: 'GET', url: '/hub/api/session' }), 401, 'authentication', 'not_signed_in');
  });

  it('is signed out for an unknown, malformed or oversized cookie', async () => {
    for (const cookie of ['A'.repeat(43), 'not a token', 'x'.repeat(10_000)]) {
      const res = await state({ cookie: `${SESSION_COOKIE}=${encodeURIComponent(cookie)}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ signed_in: false, session: null });
    }
  });

  it('gives the signed-in visitor the same session as GET /session', async () => {
    const res = await w.member.get('/hub/api/session/state');
    expect(res.statusCode, res.body).toBe(200);
    const session = (await w.member.get('/hub/api/session')).json();
    expect(res.json()).toEqual({ signed_in: true, session });
    expect(session.account.account_id).toBe(w.s.acme.id);
  });

  it('knows no session sent to a host name that is not the hub (DNS rebinding)', async () => {
    const res = await w.member.request({ method: 'GET', url: '/hub/api/session/state', headers: { host: 'rebind.attacker.example:8080' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ signed_in: false, session: null });
  });
});
