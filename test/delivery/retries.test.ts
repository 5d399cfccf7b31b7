// Deliveries that survive a bad minute (issue 10), against misbehaving sinks on loopback: a send
// that failed before the message was handed over, in a way that may pass, is tried again with
// backoff until the attempts (or the retry window) are spent; a refusal is failed at once; a send
// that may have gone through is unknown and never tried again. The table these tests fill
// (transport answer → attempts → outcome → deliveries) is printed at the end of the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sender } from '../../src/delivery/sender.js';
import { attemptLog } from '../../src/delivery/store.js';
import { outboxTransport } from '../../src/delivery/transports/outbox.js';
import { smsHttpTransport } from '../../src/delivery/transports/sms-http.js';
import { smtpTransport } from '../../src/delivery/transports/smtp.js';
import type { Transports } from '../../src/delivery/transports/index.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { closedPort, startHttpSink, startSmtpSink, type HttpBehaviour, type SmtpBehaviour } from './sinks.js';
import { enqueue, row, seedContacts, type Seeded } from './support.js';

let t: TestDb;
let seeded: Seeded;
const table: string[][] = [];
const senders: Sender[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await freshDb();
  seeded = await seedContacts(t.db);
});

afterAll(async () => {
  for (const s of senders) await s.stop().catch(() => {});
  for (const c of closers) await c().catch(() => {});
  await t?.close();
  const lines = ['| sink | transport answer (each attempt) | attempts | outcome | delivered |', '|---|---|---|---|---|', ...table.map((r) => `| ${r.join(' | ')} |`)];
  console.log(`\nRetry table (${t?.url ? 'PostgreSQL' : 'PGlite'}):\n${lines.join('\n')}\n`);
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// Small timeouts and backoff: a test never waits minutes. The sender is driven with sendBatch.
function sender(transports: Transports, extra: Partial<ConstructorParameters<typeof Sender>[0]> = {}): Sender {
  const s = new Sender({
    db: t.db,
    transports,
    concurrency: 2,
    pollMs: 60_000,
    sendTimeoutMs: 2_000,
    stuckAfterMs: 60_000,
    maxAttempts: 4,
    retryBaseMs: 20,
    retryMaxDelayMs: 100,
    ...extra,
  });
  senders.push(s);
  return s;
}

const smtpVia = (url: string): Transports => ({
  email: smtpTransport({ url, from: 'Acme <news@acme.test>', timeoutMs: 400, maxConnections: 1 }),
  sms: outboxTransport(),
});
const smsVia = (url: string, timeoutMs = 400): Transports => ({ email: outboxTransport(), sms: smsHttpTransport({ url, token: null, timeoutMs }) });

/** Attempts the message until it is settled (sent, failed, unknown); bounded. */
async function untilSettled(s: Sender, id: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await s.sendBatch();
    const r = await row(t.db, id);
    if (['sent', 'failed', 'unknown'].includes(r.status)) return r;
    if (Date.now() > end) throw new Error(`message ${id} still ${r.status} after ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** After a final unknown or failure: more claims find nothing, the sink sees nothing more. */
async function neverAgain(s: Sender, id: string) {
  await sleep(150);
  expect(await s.sendBatch()).toBe(0);
  expect((await row(t.db, id)).status).not.toBe('queued');
}

async function email(to = 'cy@example.org') {
  return enqueue(t.db, { accountId: seeded.accountId, to });
}
async function sms() {
  return enqueue(t.db, { accountId: seeded.accountId, channel: 'sms', to: '+15550100001', subject: null, body: 'Your code is 1234' });
}

async function smtpCase(label: string, answer: string, script: SmtpBehaviour[], to = 'cy@example.org') {
  const sink = await startSmtpSink(script);
  closers.push(sink.close);
  const s = sender(smtpVia(sink.url));
  const m = await email(to);
  const r = await untilSettled(s, m.id);
  const log = await attemptLog(t.db, seeded.accountId, m.id);
  table.push([label, answer, String(r.attempts), `${r.status}${r.status === 'sent' ? '' : `: ${log.at(-1)?.reason}`}`, delivered(r.status, sink.delivered, sink.received)]);
  return { r, log, sink, s, id: m.id };
}

/** Deliveries the sink confirmed; for an unknown, also what it took without answering. */
const delivered = (status: string, accepted: number, received: number) => (status === 'unknown' ? `${accepted} (received ${received}, unanswered)` : String(accepted));

async function smsCase(label: string, answer: string, script: HttpBehaviour[], extra: Partial<ConstructorParameters<typeof Sender>[0]> = {}) {
  const sink = await startHttpSink(script);
  closers.push(sink.close);
  const s = sender(smsVia(sink.url), extra);
  const m = await sms();
  const r = await untilSettled(s, m.id);
  const log = await attemptLog(t.db, seeded.accountId, m.id);
  table.push([label, answer, String(r.attempts), `${r.status}${r.status === 'sent' ? '' : `: ${log.at(-1)?.reason}`}`, delivered(r.status, sink.delivered, sink.requests)]);
  return { r, log, sink, s, id: m.id };
}

describe('SMTP: refusals that may pass are retried', () => {
  it('a server that drops connections for a bad minute, then comes back: delivered once', async () => {
    // The SMTP pool reconnects by itself when a connection closes before the message started
    // (nothing of it was sent); whichever layer tried again, the message arrives once.
    const { r, log, sink } = await smtpCase('SMTP, drops 2 connections then accepts', 'closed before greeting ×2, then 250', ['drop-at-connect', 'drop-at-connect', 'accept']);
    expect(r).toMatchObject({ status: 'sent', error: null });
    expect(r.attempts).toBeLessThanOrEqual(3);
    expect(log.at(-1)!.outcome).toBe('sent');
    expect(log.slice(0, -1).every((e) => e.outcome === 'retry' && /before the message was handed over/.test(e.reason ?? ''))).toBe(true);
    expect(sink.connections).toBe(3);
    expect(sink.delivered).toBe(1);
  });

  it('421 at the greeting, then accepted: delivered once, on the second attempt', async () => {
    const { r, log, sink } = await smtpCase('SMTP, busy once', '421 greeting, then 250', ['greet-421', 'accept']);
    expect(r).toMatchObject({ status: 'sent', attempts: 2 });
    expect(log[0]).toMatchObject({ outcome: 'retry', reason: 'the mail server deferred the message (421)' });
    expect(sink.delivered).toBe(1);
  });

  it('451 after the data (not accepted), twice, then accepted: delivered once', async () => {
    const { r, sink } = await smtpCase('SMTP, 451 after the data ×2', '451 ×2, then 250', ['data-451', 'data-451', 'accept']);
    expect(r).toMatchObject({ status: 'sent', attempts: 3 });
    expect(sink.received).toBe(3);
    expect(sink.delivered).toBe(1);
  });

  it('451 every time (greylisted): failed once the attempts are spent', async () => {
    const { r, log, sink, s, id } = await smtpCase('SMTP, 451 at RCPT always', '451 ×4', ['rcpt-451']);
    expect(r).toMatchObject({ status: 'failed', attempts: 4 });
    expect(r.error).toMatch(/SMTP server answered 451.*\(gave up: after 4 attempts\)$/);
    expect(log.map((e) => e.outcome)).toEqual(['retry', 'retry', 'retry', 'failed']);
    expect(sink.delivered).toBe(0);
    await neverAgain(s, id);
  });

  it('a refused connection every time: failed once the attempts are spent', async () => {
    const port = await closedPort();
    const s = sender(smtpVia(`smtp://127.0.0.1:${port}`));
    const m = await email();
    const r = await untilSettled(s, m.id);
    const log = await attemptLog(t.db, seeded.accountId, m.id);
    table.push(['SMTP, nothing listening', 'ECONNREFUSED ×4', String(r.attempts), `${r.status}: ${log.at(-1)?.reason}`, '0']);
    expect(r).toMatchObject({ status: 'failed', attempts: 4 });
    expect(log.every((e) => e.reason === 'the mail server could not be reached (ECONNREFUSED)')).toBe(true);
  });

  it('a server that never greets (timeout before any answer): retried, then failed', async () => {
    const { r, log, sink } = await smtpCase('SMTP, silent', 'greeting timeout ×4', ['silent']);
    expect(r).toMatchObject({ status: 'failed', attempts: 4 });
    expect(log[0]).toMatchObject({ outcome: 'retry', reason: 'the mail server did not answer in time' });
    expect(sink.connections).toBe(4);
  });
});

describe('SMTP: refusals and ambiguity are final', () => {
  it('550 is failed at once, never retried', async () => {
    const { r, log, sink, s, id } = await smtpCase('SMTP, 550 at RCPT', '550', ['rcpt-550'], 'someone@example.org');
    expect(r).toMatchObject({ status: 'failed', attempts: 1 });
    expect(log).toEqual([expect.objectContaining({ outcome: 'failed', reason: 'the mail server refused the message (550)' })]);
    await neverAgain(s, id);
    expect(sink.connections).toBe(1);
  });

  it('a connection dropped after the whole message went: unknown, never re-sent (at most one delivery)', async () => {
    const { r, log, sink, s, id } = await smtpCase('SMTP, drops after the data', 'connection closed after the message, no answer', ['drop-after-data', 'accept']);
    expect(r).toMatchObject({ status: 'unknown', attempts: 1 });
    expect(r.error).toMatch(/^Delivery outcome unknown: .*; not resent$/);
    expect(log).toEqual([expect.objectContaining({ outcome: 'unknown' })]);
    expect(log[0].reason).toMatch(/after the message was handed over/);
    await neverAgain(s, id);
    expect(sink.received).toBe(1);
    expect(sink.delivered).toBe(0);
  });
});

describe('SMS over HTTP', () => {
  it('503 twice, then 202: delivered once, on the third attempt', async () => {
    const { r, log, sink } = await smsCase('SMS, 503 ×2', '503 ×2, then 202', [{ status: 503 }, { status: 503 }, { status: 202 }]);
    expect(r).toMatchObject({ status: 'sent', attempts: 3 });
    expect(log.map((e) => e.outcome)).toEqual(['retry', 'retry', 'sent']);
    expect(sink.delivered).toBe(1);
  });

  it('429 with Retry-After: the next attempt waits at least that long; then delivered once', async () => {
    const sink = await startHttpSink([{ status: 429, retryAfter: '2' }, { status: 202 }]);
    closers.push(sink.close);
    const s = sender(smsVia(sink.url));
    const m = await sms();
    await s.sendBatch();
    // Due no sooner than Retry-After (2 s) on the database's clock, whatever the backoff says.
    const due = await t.db.query<{ ms: number }>(`select extract(epoch from (run_at - now())) * 1000 as ms from outbox where id = $1`, [m.id]);
    expect(Number(due[0].ms)).toBeGreaterThan(1_500);
    expect(await s.sendBatch()).toBe(0);
    const r = await untilSettled(s, m.id);
    const log = await attemptLog(t.db, seeded.accountId, m.id);
    table.push(['SMS, 429 with Retry-After: 2', '429, then 202 (≥ 2 s later)', String(r.attempts), r.status, String(sink.delivered)]);
    expect(r).toMatchObject({ status: 'sent', attempts: 2 });
    expect(log[0]).toMatchObject({ outcome: 'retry', reason: 'the SMS provider answered HTTP 429' });
    expect(new Date(log[1].at).getTime() - new Date(log[0].at).getTime()).toBeGreaterThanOrEqual(1_900);
    expect(sink.delivered).toBe(1);
  });

  it('400 is failed at once, never retried', async () => {
    const { r, s, id, sink } = await smsCase('SMS, 400', '400', [{ status: 400 }]);
    expect(r).toMatchObject({ status: 'failed', attempts: 1, error: 'SMS provider answered HTTP 400' });
    await neverAgain(s, id);
    expect(sink.requests).toBe(1);
  });

  it('503 every time, with a short retry window: failed when the window is spent, before the attempts are', async () => {
    const { r } = await smsCase('SMS, 503 always, window 300 ms', '503 until the window is spent', [{ status: 503 }], {
      maxAttempts: 8,
      retryWindowMs: 300,
      retryBaseMs: 60,
      retryMaxDelayMs: 200,
    });
    expect(r.status).toBe('failed');
    expect(r.attempts).toBeLessThan(8);
    expect(r.error).toMatch(/gave up: the retry window \(300 ms\) is spent/);
  });

  it('a connection dropped after the request went: unknown, never re-sent', async () => {
    const { r, s, id, sink } = await smsCase('SMS, drops after the request', 'connection closed after the request, no answer', ['drop-after-request', { status: 202 }]);
    expect(r).toMatchObject({ status: 'unknown', attempts: 1 });
    await neverAgain(s, id);
    expect(sink.requests).toBe(1);
  });

  it('no answer in time after the request went: unknown, never re-sent', async () => {
    const { r, s, id, sink } = await smsCase('SMS, silent', 'no answer within 400 ms', ['silent', { status: 202 }]);
    expect(r).toMatchObject({ status: 'unknown', attempts: 1 });
    await neverAgain(s, id);
    expect(sink.requests).toBe(1);
  });

  it('a refused connection: retried, then failed', async () => {
    const port = await closedPort();
    const s = sender(smsVia(`http://127.0.0.1:${port}/sms`));
    const m = await sms();
    const r = await untilSettled(s, m.id);
    table.push(['SMS, nothing listening', 'ECONNREFUSED ×4', String(r.attempts), `${r.status}: ${(await attemptLog(t.db, seeded.accountId, m.id)).at(-1)?.reason}`, '0']);
    expect(r).toMatchObject({ status: 'failed', attempts: 4, error: 'SMS provider unreachable (ECONNREFUSED) (gave up: after 4 attempts)' });
  });
});
