// The Message as the hub shows it (the Messages screen and a contact's page): what happened to one
// email or SMS. The recipient is masked as the logs mask it and the transport's reason has
// addresses blanked, so the screen shows no more of a person's address than a log line does
// (schemas.ts has the shape).
import { maskAddress, redactAddresses } from '../../delivery/mask.js';
import { keptInOutbox } from '../../domain/providers.js';
import { iso, isoOrNull } from '../../lib/time.js';
import { toHtml } from '../../delivery/transports/email-body.js';
import type { HubMessage, HubMessageDetail } from './schemas.js';
import type { MessageDetailRow, MessageRow } from './store.js';

export function renderMessage(r: MessageRow): HubMessage {
  return {
    id: r.id,
    channel: r.channel,
    status: r.status,
    to: maskAddress(r.to_address),
    automation: r.automation_id ? { id: r.automation_id, name: r.automation_name ?? '' } : null,
    automation_run_id: r.automation_run_id,
    test: r.test,
    contact: r.contact_id ? { id: r.contact_id, name: r.contact_name ?? '' } : null,
    attempts: r.attempts,
    created_at: iso(r.created_at),
    sent_at: isoOrNull(r.sent_at),
    error: r.error === null ? null : redactAddresses(r.error),
    kept_in_outbox: keptInOutbox(r.status, r.transport),
  };
}

/**
 * One message's page. Owners and admins see the whole recipient and the body; a member sees the
 * recipient masked and no body (the person's address and what was said to them are personal data),
 * but the subject, the status and every attempt. Transport answers have addresses blanked for all.
 */
export function renderMessageDetail(r: MessageDetailRow, mayRead: boolean): HubMessageDetail {
  return {
    ...renderMessage(r),
    to: mayRead ? r.to_address : maskAddress(r.to_address),
    to_masked: !mayRead,
    subject: r.subject,
    body: mayRead ? (r.channel === 'email' ? toHtml(r.body) : r.body) : null,
    body_format: r.channel === 'email' ? 'html' : 'text',
    body_hidden: !mayRead,
    step: r.step_id ? { id: r.step_id, name: r.step_name ?? r.step_id } : null,
    transport: r.transport,
    attempt_log: r.attempt_log.map((a) => ({
      at: iso(new Date(a.at)),
      outcome: a.outcome,
      transport: a.transport ?? null,
      reason: a.reason === null ? null : redactAddresses(a.reason),
      answer: a.answer ? redactAddresses(a.answer) : null,
    })),
    resend_of: r.resend_of,
    resent_as: r.resent_as,
  };
}

/**
 * The policy of a message's body as the hub serves it: nothing loads (images from data: only) and
 * nothing runs, and the document is sandboxed even when opened on its own. It is a response
 * header, not a meta tag in a srcdoc: a header binds before the first byte is parsed.
 */
export const MESSAGE_BODY_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'font-src data:',
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  'sandbox',
].join('; ');

const escapeHtml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A message's body as a document for the sandboxed frame: an email as its HTML part is sent, a text as preformatted text. */
export function messageBodyDocument(r: Pick<MessageDetailRow, 'channel' | 'body'>): string {
  const content = r.channel === 'email' ? toHtml(r.body) : `<pre style="white-space:pre-wrap;font:inherit">${escapeHtml(r.body)}</pre>`;
  return (
    '<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
    '<style>body{font:15px/1.5 system-ui,sans-serif;margin:0.75rem;overflow-wrap:anywhere}img{max-width:100%}</style>' +
    `</head><body>${content}</body></html>`
  );
}
