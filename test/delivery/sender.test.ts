// The sender against a real SMTP server on loopback: delivery with stable Message-ID and the
// row's headers, SMTP refusals, concurrent senders, rows caught mid-send, NOTIFY wake-ups, the
// outbox (development) transport and a step's message status.
import { markOrphansUnknown } from '../../src/delivery/store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith, loadConfig } from '../../src/config.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { Sender, messageStatusForStep, messageStatusesForRun } from '../../src/delivery/sender.js';
import { claimQueued, UNKNOWN_OUTCOME_ERROR } from '../../src/delivery/store.js';
import { outboxTransport } from '../../src/delivery/transports/outbox.js';
import { smtpTransport } from '../../src/delivery/transports/smtp.js';
import { createTransports, describeTransports } from '../../src/delivery/transports/index.js';
import { unsubscribeHeaders, withUnsubscribeLink } from '../../src/delivery/unsubscribe.js';
import type { Transports } from '../../src/delivery/transports/index.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { enqueue, headersOf, row, seedContacts, startSmtp, until, type Seeded, type TestSmtp } from './support.js';

let t: TestDb;
let smtp: TestSmtp;
let seeded: Seeded;
const opened: Sender[] = [];

function smtpTransports(): Transports {
  const email = smtpTransport({ url: smtp.url, from: 'Acme <news@acme.test>', timeoutMs: 5_000, maxConnections: 2 });
  return { email, sms: outboxTransport() };
}

function sender(transports: Transports = smtpTransports(), extra: Partial<ConstructorParameters<typeof Sender>[0]> = {}): Sender {
  const s = new Sender({ db: t.db, transports, concurrency: 4, pollMs: 60_000, sendTimeoutMs: 5_000, stuckAfterMs: 60_000, stopGraceMs: 2_000, ...extra });
  opened.push(s);
  return s;
}

beforeAll(async () => {
  t = await freshDb();
  smtp = await startSmtp();
  seeded = await seedContacts(t.db);
});

afterAll(async () => {
  for (const s of opened) await s.stop().catch(() => {});
  await smtp?.close();
  await t?.close();
});

describe('sender over SMTP', () => {
  it('delivers a queued marketing email with its Message-ID, List-Unsubscribe headers and link', async () => {
    const config = configWith({});
    const u = await unsubscribeHeaders(t.db, config, seeded.accountId, seeded.contacts.ann);
    const m = await enqueue(t.db, {
      accountId: seeded.accountId,
      to: 'ann@example.org',
      subject: 'Welcome, Ann',
      // As the send step renders it: an HTML-escaped fragment.
      body: withUnsubscribeLink('Hello Ann &amp; co,\nwelcome aboard.', u.link),
      headers: u.headers,
    });
    const before = smtp.received.length;
    const s = sender();
    expect(await s.sendBatch()).toBe(1);
    expect(smtp.received.length).toBe(before + 1);
    const got = smtp.received.at(-1)!;
    expect(got.to).toEqual(['ann@example.org']);
    expect(got.from).toBe('news@acme.test');
    const h = headersOf(got.raw);
    expect(h.get('message-id')).toBe(m.messageId);
    expect(h.get('subject')).toBe('Welcome, Ann');
    expect(h.get('list-unsubscribe')).toBe(`<${u.link}>`);
    expect(h.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(u.link).toMatch(/^http:\/\/127\.0\.0\.1:8080\/unsubscribe\/[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}$/);
    const body = got.raw.replace(/\r\n/g, '\n').split('\n\n').slice(1).join('\n\n').replace(/=\n/g, '');
    expect(h.get('content-type')).toMatch(/^multipart\/alternative/);
    // The text part decodes the entities; the HTML part keeps them, with the link as a link.
    expect(body).toContain('Hello Ann & co,\nwelcome aboard.');
    expect(body).toContain('<p>Hello Ann &amp; co,<br>');
    expect(body).toContain(`unsubscribe: ${u.link}`);
    expect(body).toContain(`<a href=3D"${u.link}">`);

    const r = await row(t.db, m.id);
    expect(r).toMatchObject({ status: 'sent', error: null, attempts: 1, transport: 'smtp' });
    expect(r.sent_at).toBeInstanceOf(Date);
    // Nothing left to send: the row is never claimed again.
    expect(await s.sendBatch()).toBe(0);
    expect(smtp.received.length).toBe(before + 1);
  });

  it('drops headers that would rewrite the envelope or inject lines', async () => {
    const m = await enqueue(t.db, {
      accountId: seeded.accountId,
      to: 'bob@example.org',
      headers: { Bcc: 'spy@example.org', 'X-Campaign': 'spring', 'X-Evil': 'a\r\nBcc: spy@example.org' },
    });
    await sender().drain();
    const got = smtp.received.at(-1)!;
    expect(got.to).toEqual(['bob@example.org']);
    const h = headersOf(got.raw);
    expect(h.get('x-campaign')).toBe('spring');
    expect(h.has('bcc')).toBe(false);
    expect(h.has('x-evil')).toBe(false);
    expect((await row(t.db, m.id)).status).toBe('sent');
  });

  it('an SMTP refusal marks the row failed with the error and is not retried', async () => {
    const m = await enqueue(t.db, { accountId: seeded.accountId, to: 'reject-me@example.org' });
    const s = sender();
    await s.drain();
    const r = await row(t.db, m.id);
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/SMTP server answered 550/);
    expect(r.sent_at).toBeNull();
    expect(await s.sendBatch()).toBe(0);
    expect((await row(t.db, m.id)).attempts).toBe(1);
  });

  it('an unreachable SMTP server, with no attempt left, marks the row failed (nothing left)', async () => {
    const closed = await startSmtp();
    await closed.close();
    const m = await enqueue(t.db, { accountId: seeded.accountId, to: 'cy@example.org' });
    const email = smtpTransport({ url: closed.url, from: 'a@acme.test', timeoutMs: 2_000, maxConnections: 1 });
    await sender({ email, sms: outboxTransport() }, { maxAttempts: 1 }).drain();
    const r = await row(t.db, m.id);
    expect(r.status).toBe('failed');
    expect(r.error).toMatch(/ECONNREFUSED|SMTP error/);
  });

  it('two senders claiming at once deliver every row exactly once', async () => {
    const ids = [];
    for (let i = 0; i < 30; i++) ids.push(await enqueue(t.db, { accountId: seeded.accountId, to: `bulk${i}@example.org`, subject: `n${i}` }));
    const before = smtp.received.length;
    const a = sender();
    const b = sender();
    const [na, nb] = await Promise.all([a.drain(), b.drain()]);
    expect(na + nb).toBe(30);
    const got = smtp.received.slice(before).map((r) => headersOf(r.raw).get('message-id'));
    expect(got.length).toBe(30);
    expect(new Set(got).size).toBe(30);
    expect(new Set(got)).toEqual(new Set(ids.map((m) => m.messageId)));
    for (const m of ids) expect(await row(t.db, m.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('rows caught mid-send', () => {
  it('a row left sending longer than the timeout becomes unknown and is never re-sent', async () => {
    const m = await enqueue(t.db, { accountId: seeded.accountId, to: 'ann@example.org', subject: 'crashed' });
    // A sender claimed it and died: the row is `sending`, claimed ten minutes ago.
    const claimed = await claimQueued(t.db, 10);
    expect(claimed.map((c) => c.id)).toEqual([m.id]);
    await t.db.query(`update outbox set claimed_at = now() - interval '10 minutes' where id = $1`, [m.id]);
    const fresh = await enqueue(t.db, { accountId: seeded.accountId, to: 'bob@example.org', subject: 'in flight' });
    await claimQueued(t.db, 10); // another live sender's row, claimed just now

    const before = smtp.received.length;
    const s = sender(smtpTransports(), { orphansAtStart: 'stale' });
    await s.start();
    const r = await row(t.db, m.id);
    expect(r).toMatchObject({ status: 'unknown', error: UNKNOWN_OUTCOME_ERROR, attempts: 1, sent_at: null });
    // The live sender's row is left alone (it is not stale yet).
    expect((await row(t.db, fresh.id)).status).toBe('sending');
    expect(s.stats.orphaned).toBe(1);
    await s.drain();
    await s.reapOrphans(60_000);
    expect((await row(t.db, m.id)).status).toBe('unknown');
    expect(smtp.received.slice(before).map((x) => headersOf(x.raw).get('subject'))).not.toContain('crashed');
    await s.stop();
  });

  it('on a store one process owns, every sending row at start is an orphan', async () => {
    const m = await enqueue(t.db, { accountId: seeded.accountId, to: 'ann@example.org', subject: 'left over' });
    await claimQueued(t.db, 10);
    const s = sender(smtpTransports(), { orphansAtStart: 'all' });
    await s.start();
    expect((await row(t.db, m.id)).status).toBe('unknown');
    await s.stop();
    // The other test's row too: nothing is `sending` any more, and nothing was re-sent.
    expect(await t.db.query(`select id from outbox where status = 'sending'`)).toEqual([]);
  });

  it('a late but definite answer settles an unknown row', async () => {
    // A slow transport: another sender's stuck reaper calls the row unknown while the send is still
    // going (a sender never reaps its own sends in progress).
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = { name: 'slow', development: false, send: () => gate };
    const m = await enqueue(t.db, { accountId: seeded.accountId, to: 'cy@example.org' });
    const s = sender({ email: slow, sms: outboxTransport() });
    const batch = s.sendBatch();
    await until(async () => (await row(t.db, m.id)).status === 'sending', 2_000, 'the claim');
    await t.db.query(`update outbox set claimed_at = now() - interval '10 minutes' where id = $1`, [m.id]);
    expect(await s.reapOrphans(60_000)).toBe(0);
    expect(await markOrphansUnknown(t.db, 60_000, 'another sender')).toHaveLength(1);
    expect((await row(t.db, m.id)).status).toBe('unknown');
    release();
    await batch;
    expect((await row(t.db, m.id)).status).toBe('sent');
  });

  it('a send past its guard is unknown at once but keeps its slot until the transport answers', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sent: string[] = [];
    const slow = {
      name: 'slow',
      development: false,
      send: async (msg: { to: string }) => {
        if (msg.to === 'first@example.org') await gate;
        sent.push(msg.to);
      },
    };
    const a = await enqueue(t.db, { accountId: seeded.accountId, to: 'first@example.org' });
    const b = await enqueue(t.db, { accountId: seeded.accountId, to: 'second@example.org' });
    // One slot; the guard gives up on a send after sendTimeoutMs + 1 s.
    const s = sender({ email: slow, sms: outboxTransport() }, { concurrency: 1, sendTimeoutMs: 100 });
    const first = s.sendBatch(1);
    await until(async () => (await row(t.db, a.id)).status === 'unknown', 5_000, 'the guard');
    expect((await row(t.db, a.id)).error).toMatch(/^Delivery outcome unknown: no answer from the slow transport within 100 ms/);
    // The slot is still held: the batch has not finished, so nothing else is claimed meanwhile.
    let done = false;
    void first.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    expect((await row(t.db, b.id)).status).toBe('queued');
    release();
    await first;
    // The late, definite answer replaces the unknown; then the next message goes.
    expect((await row(t.db, a.id)).status).toBe('sent');
    expect(s.stats).toMatchObject({ sent: 1, unknown: 0 });
    expect(await s.sendBatch(1)).toBe(1);
    expect((await row(t.db, b.id)).status).toBe('sent');
    expect(sent.slice(-2)).toEqual(['first@example.org', 'second@example.org']);
  });
});

describe('the running sender', () => {
  it('wakes on the outbox notification and delivers without polling', async () => {
    const s = sender(); // pollMs 60 s: only NOTIFY can wake it within the bound below
    await s.start();
    await new Promise((r) => setTimeout(r, 50)); // the first (empty) claim is done; it now waits
    const m = await enqueue(t.db, { accountId: seeded.accountId, to: 'ann@example.org', subject: 'notified' });
    await until(async () => (await row(t.db, m.id)).status === 'sent', 5_000, 'delivery after NOTIFY');
    await s.stop();
  });
});

describe('the outbox (development) transport', () => {
  it('settles rows sent with transport outbox and sends nothing anywhere', async () => {
    const cfg = loadConfig({});
    expect(cfg.delivery.emailTransport).toBe('outbox');
    expect(describeTransports(cfg.delivery)).toMatch(/email outbox \(development.*SMS outbox \(development/);
    const transports = createTransports(cfg.delivery);
    const before = smtp.received.length;
    const runId = uuidv7();
    const e = await enqueue(t.db, { accountId: seeded.accountId, to: 'ann@example.org', automationRunId: runId, stepId: 'welcome' });
    const sms = await enqueue(t.db, { accountId: seeded.accountId, channel: 'sms', to: '+15550100001', subject: null, automationRunId: runId, stepId: 'text' });
    const s = sender(transports);
    expect(s.developmentTransports).toEqual(['email', 'sms']);
    await s.drain();
    expect(await row(t.db, e.id)).toMatchObject({ status: 'sent', transport: 'outbox' });
    expect(await row(t.db, sms.id)).toMatchObject({ status: 'sent', transport: 'outbox' });
    expect(smtp.received.length).toBe(before);

    const st = await messageStatusForStep(t.db, seeded.accountId, runId, 'welcome');
    expect(st).toMatchObject({ status: 'sent', error: null, messages: 1, transport: 'outbox' });
    expect(await messageStatusForStep(t.db, seeded.otherAccountId, runId, 'welcome')).toBeNull();
    const all = await messageStatusesForRun(t.db, seeded.accountId, runId);
    expect([...all.keys()].sort()).toEqual(['text', 'welcome']);
  });

  it("a step's status shows its worst message (unknown, with the error)", async () => {
    const runId = uuidv7();
    await enqueue(t.db, { accountId: seeded.accountId, channel: 'team', to: 'a@acme.test', automationRunId: runId, stepId: 'notify' });
    const b = await enqueue(t.db, { accountId: seeded.accountId, channel: 'team', to: 'b@acme.test', automationRunId: runId, stepId: 'notify' });
    await sender(createTransports(loadConfig({}).delivery)).drain();
    await t.db.query(`update outbox set status = 'unknown', error = $2 where id = $1`, [b.id, UNKNOWN_OUTCOME_ERROR]);
    const st = await messageStatusForStep(t.db, seeded.accountId, runId, 'notify');
    expect(st).toMatchObject({ status: 'unknown', error: UNKNOWN_OUTCOME_ERROR, messages: 2 });
  });
});

describe('email bodies', () => {
  it('an escaped fragment becomes an HTML part and a decoded text part', async () => {
    const { toHtml, toText } = await import('../../src/delivery/transports/email-body.js');
    expect(toHtml('Hi Tom &amp; Jerry\nline two\n\nSee https://x.test/a')).toBe('<p>Hi Tom &amp; Jerry<br>\nline two</p>\n<p>See <a href="https://x.test/a">https://x.test/a</a></p>');
    expect(toHtml('<p>Already <b>HTML</b></p>')).toBe('<p>Already <b>HTML</b></p>');
    expect(toText('<p>Hi &lt;Tom&gt; &#39;J&#x27;</p><p><a href="https://x.test">site</a></p>')).toBe("Hi <Tom> 'J'\n\nsite (https://x.test)");
  });
});
