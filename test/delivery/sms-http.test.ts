// The http SMS provider against a local HTTP server on loopback: the JSON it posts, a 2xx is
// sent, any other answer is failed, silence is unknown (never re-sent); and the config rules.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { Sender } from '../../src/delivery/sender.js';
import { outboxTransport } from '../../src/delivery/transports/outbox.js';
import { smsHttpTransport } from '../../src/delivery/transports/sms-http.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { enqueue, row, seedContacts, type Seeded } from './support.js';

interface Hit {
  path: string;
  auth: string | undefined;
  type: string | undefined;
  body: unknown;
}

let t: TestDb;
let seeded: Seeded;
let server: http.Server;
let base: string;
const hits: Hit[] = [];

beforeAll(async () => {
  t = await freshDb();
  seeded = await seedContacts(t.db);
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', auth: req.headers.authorization, type: req.headers['content-type'], body: JSON.parse(data || 'null') });
      if (req.url === '/ok') return res.writeHead(202).end('{"queued":true}');
      if (req.url === '/fail') return res.writeHead(400).end('boom');
      if (req.url === '/redirect') return res.writeHead(302, { location: '/ok' }).end();
      // /slow: never answers within the sender's timeout
      setTimeout(() => res.writeHead(200).end(), 5_000).unref();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await t?.close();
});

function senderTo(path: string, token: string | null = null): Sender {
  return new Sender({
    db: t.db,
    transports: { email: outboxTransport(), sms: smsHttpTransport({ url: base + path, token, timeoutMs: 300 }) },
    concurrency: 2,
    sendTimeoutMs: 300,
    stuckAfterMs: 60_000,
  });
}

async function sms(text: string) {
  return enqueue(t.db, { accountId: seeded.accountId, channel: 'sms', to: '+15550100001', subject: null, body: text });
}

describe('http SMS provider', () => {
  it('posts {to, body, message_id} as JSON with the bearer token; a 2xx is sent', async () => {
    const m = await sms('Your code is 1234');
    await senderTo('/ok', 'tok_123').drain();
    const hit = hits.at(-1)!;
    expect(hit).toMatchObject({ path: '/ok', auth: 'Bearer tok_123', type: 'application/json' });
    expect(hit.body).toEqual({ to: '+15550100001', body: 'Your code is 1234', message_id: m.messageId });
    expect(await row(t.db, m.id)).toMatchObject({ status: 'sent', transport: 'http', error: null });
  });

  it('a refusal (4xx other than 429, and a redirect) is failed at once with the status', async () => {
    const a = await sms('a');
    await senderTo('/fail').drain();
    expect(await row(t.db, a.id)).toMatchObject({ status: 'failed', error: 'SMS provider answered HTTP 400', attempts: 1 });
    const b = await sms('b');
    await senderTo('/redirect').drain();
    expect(await row(t.db, b.id)).toMatchObject({ status: 'failed', error: 'SMS provider answered HTTP 302' });
    expect(hits.filter((h) => h.path === '/ok' && (h.body as { body: string }).body === 'b')).toEqual([]);
  });

  it('no answer in time is unknown, and is not re-sent', async () => {
    const m = await sms('slow one');
    const s = senderTo('/slow');
    await s.drain();
    const r = await row(t.db, m.id);
    expect(r.status).toBe('unknown');
    expect(r.error).toMatch(/^Delivery outcome unknown: the SMS provider did not answer within 300 ms; not resent$/);
    const count = hits.filter((h) => h.path === '/slow').length;
    expect(await s.sendBatch()).toBe(0);
    expect(hits.filter((h) => h.path === '/slow').length).toBe(count);
  });

  it('an unreachable provider, with no attempt left, is failed', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const m = await sms('nowhere');
    await new Sender({
      db: t.db,
      transports: { email: outboxTransport(), sms: smsHttpTransport({ url: `http://127.0.0.1:${port}/x`, token: null, timeoutMs: 1_000 }) },
      maxAttempts: 1,
    }).drain();
    expect(await row(t.db, m.id)).toMatchObject({ status: 'failed', error: 'SMS provider unreachable (ECONNREFUSED)' });
  });
});

describe('delivery config', () => {
  const prod = {
    SWITCHBOARD_ENV: 'production',
    SWITCHBOARD_LLM_PROVIDER: 'openai-compatible',
    SWITCHBOARD_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
  };

  it('production refuses the development transports and needs a public URL', () => {
    expect(() => loadConfig(prod)).toThrow(/refuses the outbox \(development\) email transport/);
    const withEmail = { ...prod, SWITCHBOARD_EMAIL_TRANSPORT: 'smtp', SWITCHBOARD_SMTP_URL: 'smtp://127.0.0.1:2525' };
    expect(() => loadConfig(withEmail)).toThrow(/refuses the outbox \(development\) SMS transport/);
    const withSms = { ...withEmail, SWITCHBOARD_SMS_TRANSPORT: 'http', SWITCHBOARD_SMS_WEBHOOK_URL: 'http://127.0.0.1:9/sms' };
    expect(() => loadConfig(withSms)).toThrow(/SWITCHBOARD_PUBLIC_URL/);
    const ok = loadConfig({ ...withSms, SWITCHBOARD_PUBLIC_URL: 'https://hub.example.com/', SWITCHBOARD_EMAIL_FROM: 'Acme <a@acme.test>' });
    expect(ok.delivery).toMatchObject({ emailTransport: 'smtp', smsTransport: 'http', publicUrl: 'https://hub.example.com' });
  });

  it('checks the settings and never echoes an SMTP URL (it may hold a password)', () => {
    expect(() => loadConfig({ SWITCHBOARD_EMAIL_TRANSPORT: 'smtp' })).toThrow(/needs SWITCHBOARD_SMTP_URL/);
    expect(() => loadConfig({ SWITCHBOARD_EMAIL_TRANSPORT: 'ses' })).toThrow(ConfigError);
    expect(() => loadConfig({ SWITCHBOARD_SMTP_URL: 'http://u:secretpw@x' })).toThrow(/must start with smtp:\/\/ or smtps:\/\//);
    expect(() => loadConfig({ SWITCHBOARD_SMTP_URL: 'smtp://u:secretpw@x:bad' })).toThrow(/^SWITCHBOARD_SMTP_URL is not a URL$/);
    expect(() => loadConfig({ SWITCHBOARD_INBOUND_SMS_SECRET: 'short' })).toThrow(/at least 16/);
    expect(() => loadConfig({ SWITCHBOARD_SEND_TIMEOUT_MS: '60000', SWITCHBOARD_OUTBOX_STUCK_MS: '30000' })).toThrow(/longer than/);
    expect(loadConfig({}).delivery.publicUrl).toBe('http://127.0.0.1:8080');
  });
});
