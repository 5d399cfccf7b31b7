// Email through SMTP with nodemailer (a pooled connection per sender). The Message-ID is the
// row's own (written at enqueue), so a message keeps one identity wherever it is looked up; the
// row's extra headers (List-Unsubscribe, List-Unsubscribe-Post) go out as written, minus anything
// that would let a header rewrite the envelope or the MIME structure.
import nodemailer from 'nodemailer';
import type { Transport } from '../types.js';
import { toHtml, toText } from './email-body.js';
import { DeliveryError, NEVER_CONNECTED } from './errors.js';

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
 * `failed` when the server answered with a refusal or was never reached, or the message was not
 * acceptable before it was sent; `unknown` when the connection broke or went silent later, where
 * the server may already have accepted the message.
 */
export function classifySmtpError(err: unknown): DeliveryError {
  const e = err as SmtpError;
  const what = e?.responseCode ? `SMTP server answered ${e.responseCode}` : `SMTP error ${e?.code ?? 'unknown'}`;
  // The server's response may quote the recipient: keep only the status line's code and text length-capped.
  const detail = `${what}: ${String(e?.message ?? err).replace(/[\r\n]+/g, ' ').slice(0, 300)}`;
  if (e?.responseCode) return new DeliveryError(detail, 'failed');
  if (['ECONNECTION', 'EDNS', 'EAUTH', 'EENVELOPE', 'EMESSAGE', 'ETLS', 'EREQUIRETLS', 'EPROTOCOL'].includes(e?.code ?? '')) {
    // ECONNECTION after the message is the one ambiguous case among these.
    if (e.code === 'ECONNECTION' && /closed unexpectedly/i.test(e.message)) return new DeliveryError(detail, 'unknown');
    return new DeliveryError(detail, 'failed');
  }
  if (e?.code === 'ETIMEDOUT' && e.timeoutType && e.timeoutType !== 'SOCKET_TIMEOUT') return new DeliveryError(detail, 'failed');
  if (NEVER_CONNECTED.has(e?.originalCode ?? '') || NEVER_CONNECTED.has(e?.code ?? '')) return new DeliveryError(detail, 'failed');
  return new DeliveryError(`Delivery outcome unknown: ${detail}; not resent`, 'unknown');
}

export function smtpTransport(opts: SmtpOptions): Transport {
  const transporter = nodemailer.createTransport({
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
      try {
        await transporter.sendMail({
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
        throw classifySmtpError(err);
      }
    },
    close() {
      transporter.close();
    },
  };
}
