// Shared set-up for the delivery tests: accounts and contacts from a fixture, outbox rows written
// through the same enqueueMessage the send steps use, a real SMTP server on loopback, and small
// helpers that read rows back. Every wait is bounded.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../src/db/db.js';
import { seedFixture } from '../../src/fixtures/load.js';
import { uuidv7 } from '../../src/lib/ids.js';
import { enqueueMessage } from '../../src/delivery/store.js';
import type { OutboundMessage } from '../../src/delivery/types.js';

export interface Seeded {
  accountId: string;
  otherAccountId: string;
  contacts: Record<string, string>;
  otherContacts: Record<string, string>;
}

export async function seedContacts(db: Db): Promise<Seeded> {
  const s = await seedFixture(
    db,
    {
      accounts: [
        {
          ref: 'acme',
          name: 'Acme',
          contacts: [
            { ref: 'ann', email: 'ann@example.org', first_name: 'Ann', phone: '+15550100001', sms_consent: 'granted' },
            { ref: 'bob', email: 'bob@example.org', first_name: 'Bob', phone: '+1 (555) 010-0002' },
            { ref: 'cy', email: 'cy@example.org', first_name: 'Cy' },
          ],
        },
        { ref: 'globex', name: 'Globex', contacts: [{ ref: 'ann2', email: 'ann@example.org', phone: '+15550100001' }] },
      ],
    },
    { erasureSecret: Buffer.from('t') },
  );
  return {
    accountId: s.accounts.acme.id,
    otherAccountId: s.accounts.globex.id,
    contacts: s.accounts.acme.contacts,
    otherContacts: s.accounts.globex.contacts,
  };
}

export async function enqueue(db: Db, m: Partial<OutboundMessage> & { accountId: string; to: string }): Promise<{ id: string; messageId: string }> {
  const full: OutboundMessage = {
    channel: 'email',
    subject: 'Hello',
    body: 'Hi there',
    headers: {},
    automationRunId: null,
    stepId: null,
    effectKey: uuidv7(),
    ...m,
  };
  return db.transaction((tx) => enqueueMessage(tx, full));
}

export interface OutboxRow {
  id: string;
  status: string;
  error: string | null;
  sent_at: Date | null;
  attempts: number;
  transport: string | null;
  message_id: string;
}

export async function row(db: Db, id: string): Promise<OutboxRow> {
  const rows = await db.query<OutboxRow>(`select id, status, error, sent_at, attempts, transport, message_id from outbox where id = $1`, [id]);
  return rows[0];
}

export interface Received {
  from: string;
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 and a kernel-chosen port. Recipients starting
 * with "reject" are refused with 550; no TLS or AUTH (loopback only).
 */
export async function startSmtp(): Promise<TestSmtp> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('reject')) {
        const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
        err.responseCode = 550;
        return cb(err);
      }
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      // A client killed mid-message (the kill -9 tests) resets the connection: that message was
      // not received, and the error must not go unhandled.
      stream.on('error', (err: Error) => cb(err));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Connection errors after listening (a peer that vanished) are the client's problem, not the test's.
  server.on('error', () => {});
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The headers of a raw message, unfolded, by lower-case name. */
export function headersOf(raw: string): Map<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const map = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) map.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  return map;
}

/** Polls until check() is truthy; fails after timeoutMs. */
export async function until<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
