// The sender follows the account's state (accounts/activity.ts, issue 10), checked at every claim
// and so before every attempt: a held account's messages (suspended, or a lapsed or ended
// subscription) are not claimed and take no claim slot from other accounts, and go out once the
// account is active again; a closed account's queued messages end failed ("Account closed"),
// unsent. Suppression is checked again before a retry too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_CLOSED_REASON } from '../../src/accounts/activity.js';
import { updateAccount, type AccountChanges } from '../../src/accounts/store.js';
import { Sender } from '../../src/delivery/sender.js';
import { attemptLog } from '../../src/delivery/store.js';
import { outboxTransport } from '../../src/delivery/transports/outbox.js';
import { smsHttpTransport } from '../../src/delivery/transports/sms-http.js';
import type { Transport } from '../../src/delivery/types.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { enroll, insertAutomation, seedWorld, type World } from '../engine/automations/support.js';
import { startHttpSink } from './sinks.js';
import { enqueue, row } from './support.js';

let t: TestDb;
let w: World;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await freshDb();
  w = await seedWorld(t.db);
});
afterAll(async () => {
  for (const c of closers) await c();
  await t?.close();
});

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function counting(): { transport: Transport; sent: string[] } {
  const sent: string[] = [];
  return { sent, transport: { name: 'count', development: false, async send(m) { sent.push(m.to); } } };
}

function sender(email: Transport, sms: Transport = outboxTransport()): Sender {
  return new Sender({ db: t.db, transports: { email, sms }, pollMs: 60_000, concurrency: 4, retryBaseMs: 20, retryMaxDelayMs: 50 });
}

const setAccount = (id: string, c: AccountChanges) => updateAccount(t.db, id, c);
const mail = (accountId: string, to: string) => enqueue(t.db, { accountId, to });

describe('a held account', () => {
  for (const [label, held] of [
    ['suspended', { state: 'suspended' }],
    ['subscription lapsed', { subscription: 'lapsed' }],
    ['subscription ended', { subscription: 'ended' }],
  ] as const) {
    it(`${label}: its messages are not claimed, take no slot from another account, and go once it is active again`, async () => {
      // The held account's messages are older: a claim by age alone would take them first.
      const held1 = await mail(w.acme, 'a1@example.org');
      const held2 = await mail(w.acme, 'a2@example.org');
      const other = await mail(w.globex, 'g@example.org');
      await setAccount(w.acme, held);
      const c = counting();
      const s = sender(c.transport);
      expect(await s.sendBatch(1)).toBe(1);
      expect(c.sent).toEqual(['g@example.org']);
      expect(await s.sendBatch(4)).toBe(0);
      for (const m of [held1, held2]) expect(await row(t.db, m.id)).toMatchObject({ status: 'queued', attempts: 0 });
      expect((await row(t.db, other.id)).status).toBe('sent');
      await setAccount(w.acme, { state: 'active', subscription: 'active' });
      expect(await s.drain()).toBe(2);
      expect(c.sent.sort()).toEqual(['a1@example.org', 'a2@example.org', 'g@example.org']);
    });
  }
});

describe('a closed account', () => {
  it('its queued messages end failed "Account closed" at the claim, sent to nobody', async () => {
    const m = await mail(w.acme, 'closed@example.org');
    await setAccount(w.acme, { state: 'closed' });
    try {
      const c = counting();
      await sender(c.transport).drain();
      expect(c.sent).toEqual([]);
      expect(await row(t.db, m.id)).toMatchObject({ status: 'failed', error: ACCOUNT_CLOSED_REASON, attempts: 1, transport: 'none', sent_at: null });
      expect(await attemptLog(t.db, w.acme, m.id)).toEqual([expect.objectContaining({ outcome: 'failed', reason: 'account closed' })]);
    } finally {
      await setAccount(w.acme, { state: 'active' });
    }
  });
});

describe('checked again before every attempt', () => {
  async function smsAfterOneRetry(accountId: string, to = '+15550100001', runId: string | null = null) {
    const sink = await startHttpSink([{ status: 503 }, { status: 202 }]);
    closers.push(sink.close);
    const s = sender(outboxTransport(), smsHttpTransport({ url: sink.url, token: null, timeoutMs: 2_000 }));
    const m = await enqueue(t.db, { accountId, channel: 'sms', to, subject: null, body: 'hi', automationRunId: runId, stepId: runId ? 's1' : null });
    expect(await s.sendBatch()).toBe(1);
    expect(await row(t.db, m.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(sink.requests).toBe(1);
    await sleep(120); // past the (small) backoff: the retry is due
    return { sink, s, m };
  }

  it('an account suspended between attempts: the retry waits, and goes once the account is active', async () => {
    const { sink, s, m } = await smsAfterOneRetry(w.acme);
    await setAccount(w.acme, { state: 'suspended' });
    expect(await s.sendBatch()).toBe(0);
    expect(sink.requests).toBe(1);
    await setAccount(w.acme, { state: 'active' });
    expect(await s.sendBatch()).toBe(1);
    expect(await row(t.db, m.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(sink.delivered).toBe(1);
  });

  it('an account closed between attempts: failed "Account closed", no second request', async () => {
    const { sink, s, m } = await smsAfterOneRetry(w.acme);
    await setAccount(w.acme, { state: 'closed' });
    try {
      expect(await s.sendBatch()).toBe(1);
      expect(await row(t.db, m.id)).toMatchObject({ status: 'failed', error: ACCOUNT_CLOSED_REASON, attempts: 2 });
      expect(sink.requests).toBe(1);
      expect((await attemptLog(t.db, w.acme, m.id)).map((e) => e.outcome)).toEqual(['retry', 'failed']);
    } finally {
      await setAccount(w.acme, { state: 'active' });
    }
  });

  it('a contact who replied STOP between attempts gets no second try', async () => {
    const automation = await insertAutomation(t.db, w.acme, w.site, [{ id: 's1', type: 'sms.send', config: { body: 'hi' } }]);
    const runId = await enroll(t.db, w.acme, automation, w.contacts.ann);
    const { sink, s, m } = await smsAfterOneRetry(w.acme, '+15550100001', runId);
    await t.db.query(`update contacts set sms_stopped = true where account_id = $1 and id = $2`, [w.acme, w.contacts.ann]);
    expect(await s.sendBatch()).toBe(1);
    const r = await row(t.db, m.id);
    expect(r).toMatchObject({ status: 'failed', attempts: 2 });
    expect(r.error).toMatch(/^Not sent: /);
    expect(sink.requests).toBe(1);
  });
});
