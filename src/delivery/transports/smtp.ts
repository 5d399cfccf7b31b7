// Email through SMTP with nodemailer (a pooled connection per sender). The Message-ID is the
// row's own (written at enqueue), so a message keeps one identity wherever it is looked up; the
// row's extra headers (List-Unsubscribe, List-Unsubscribe-Post) go out as written, minus anything
// that would let a header rewrite the envelope or the MIME structure.
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type NodemailerModule from 'nodemailer';
import type MailComposerClass from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type { Transport } from '../types.js';
import { toHtml, toText } from './email-body.js';
import { DeliveryError, DNS_FAILURE, NEVER_CONNECTED } from './errors.js';

export interface SmtpOptions {
  url: string;
  from: string;
  timeoutMs: number;
  maxConnections: number;
}

/** Headers the message itself sets; a row's headers may not override them. */
const RESERVED = new Set(['from', 'to', 'cc', 'bcc', 'subject', 'message-id', 'date', 'sender', 'return-path', 'mime-version', 'content-type', 'content-transfer-encoding']);

export function safeHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(name) || RESERVED.has(name.toLowerCase()) || name.toLowerCase().startsWith('content-')) continue;
    // A CR or LF in a value would start a header of its own (header injection).
    if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > 2000) continue;
    out[name] = value;
  }
  return out;
}

interface SmtpError extends Error {
  code?: string;
  originalCode?: string;
  responseCode?: number;
  timeoutType?: string;
  response?: string;
}

/**
 * What an SMTP failure means for the message. `handedOver` is false while not a byte of the
 * message has left this process (the connection failed before the message was started): then a
 * broken connection certainly lost nothing and the send may be tried again; after that, a broken
 * or silent connection may have delivered it (`unknown`, never re-sent).
 * - an answer: 4xx (421 busy, 451 try later …) may pass: retried; 5xx is a refusal: failed;
 * - never connected (refused, DNS, unreachable) or a connect/greeting timeout: retried;
 * - a login, TLS or protocol problem is the configuration's: failed (a retry would fail alike).
 */
export function classifySmtpError(err: unknown, handedOver = true): DeliveryError {
  const e = err as SmtpError;
  const what = e?.responseCode ? `SMTP server answered ${e.responseCode}` : `SMTP error ${e?.code ?? 'unknown'}`;
  // The server's response may quote the recipient: the detail stays on the row (operators only),
  // length-capped; the reason, which the run shows, is built from codes alone.
  const detail = `${what}: ${String(e?.message ?? err).replace(/[\r\n]+/g, ' ').slice(0, 300)}`;
  const code = e?.code ?? '';
  const sys = e?.originalCode ?? code;
  if (e?.responseCode) {
    const n = e.responseCode;
    if (n >= 400 && n < 500) return new DeliveryError(detail, 'retry', { reason: `the mail server deferred the message (${n})` });
    return new DeliveryError(detail, 'failed', { reason: `the mail server refused the message (${n})` });
  }
  if (code === 'EDNS' || DNS_FAILURE.has(sys)) return new DeliveryError(detail, 'retry', { reason: `the mail server's name could not be resolved (${sys === code ? code : sys})` });
  if (NEVER_CONNECTED.has(sys)) return new DeliveryError(detail, 'retry', { reason: `the mail server could not be reached (${sys})` });
  if (code === 'ETIMEDOUT' && (e.timeoutType === 'CONNECTION' || e.timeoutType === 'GREETING' || !handedOver)) {
    return new DeliveryError(detail, 'retry', { reason: 'the mail server did not answer in time' });
  }
  if (['EAUTH', 'ETLS', 'EREQUIRETLS', 'EENVELOPE', 'EMESSAGE', 'EPROTOCOL'].includes(code)) {
    return new DeliveryError(detail, 'failed', { reason: `the mail server could not take the message (${code})` });
  }
  if (!handedOver) return new DeliveryError(detail, 'retry', { reason: `the connection to the mail server broke before the message was handed over (${sys || 'closed'})` });
  return new DeliveryError(`Delivery outcome unknown: ${detail}; not resent`, 'unknown', {
    reason: `the connection to the mail server broke after the message was handed over (${sys || 'closed'})`,
  });
}

// nodemailer (forty modules) is loaded when an SMTP transport is made: a server on the outbox
// transport, the default, never loads it.
const requireLib = createRequire(import.meta.url);
let libs: { nodemailer: typeof NodemailerModule; MailComposer: typeof MailComposerClass } | null = null;
const nodemailerLibs = () =>
  (libs ??= {
    nodemailer: requireLib('nodemailer') as typeof NodemailerModule,
    MailComposer: requireLib('nodemailer/lib/mail-composer') as typeof MailComposerClass,
  });

/** The message as the server will receive it (what nodemailer would build from the same options). */
function compose(mail: Mail.Options): Promise<Buffer> {
  return new (nodemailerLibs().MailComposer)({ ...mail, disableFileAccess: true, disableUrlAccess: true }).compile().build();
}

export function smtpTransport(opts: SmtpOptions): Transport {
  const transporter = nodemailerLibs().nodemailer.createTransport({
    url: opts.url,
    pool: true,
    maxConnections: opts.maxConnections,
    connectionTimeout: Math.min(opts.timeoutMs, 30_000),
    greetingTimeout: Math.min(opts.timeoutMs, 30_000),
    socketTimeout: opts.timeoutMs,
    // Bodies are our own text; never let a message pull in files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    name: 'smtp',
    development: false,
    async send(msg) {
      let raw: Buffer;
      try {
        raw = await compose({
          from: opts.from,
          to: msg.to,
          subject: msg.subject ?? '',
          // The body is an HTML fragment (see email-body.ts); the text part is for plain clients.
          html: toHtml(msg.body),
          text: toText(msg.body),
          messageId: msg.messageId,
          headers: safeHeaders(msg.headers),
        });
      } catch (err) {
        throw new DeliveryError(`The message could not be built: ${(err as Error).message}`, 'failed', { reason: 'the message could not be built' });
      }
      // The built message goes as a stream that records its first read: until the pool starts
      // the message on a ready connection, nothing of it can have reached the server.
      let handedOver = false;
      const stream = new Readable({
        read() {
          handedOver = true;
          this.push(raw);
          this.push(null);
        },
      });
      try {
        await transporter.sendMail({ envelope: { from: opts.from, to: msg.to }, raw: stream });
      } catch (err) {
        throw classifySmtpError(err, handedOver);
      }
    },
    close() {
      transporter.close();
    },
  };
}
