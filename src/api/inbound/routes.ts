// Delivery's inbound routes, outside /v1 (no API key; not part of the API's OpenAPI document):
// - GET /unsubscribe/:token: a confirmation page (a GET never unsubscribes: mail scanners and
//   link previews fetch links); POST /unsubscribe/:token: the unsubscribe itself, also the RFC
//   8058 one-click POST mail clients send from the List-Unsubscribe header.
// - POST /inbound/sms: the SMS provider's webhook for replies; STOP and its synonyms stop SMS to
//   the sender's number, START/UNSTOP lift that. Authenticated by a shared secret header.
// Errors still leave in the catalogue's body shape (ApiError through the app's error handler).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { ApiError } from '../../domain/errors.js';
import { maskAddress } from '../../delivery/mask.js';
import { normalisePhone, setEmailOptOut, setSmsStopped } from '../../delivery/suppression-store.js';
import { verifyUnsubscribeToken } from '../../delivery/unsubscribe.js';
import { SmsBody, TokenParams } from './schemas.js';

export const INBOUND_SMS_SECRET_HEADER = 'x-switchboard-inbound-secret';
/** Provider webhooks are small; anything bigger is not a text message. */
export const INBOUND_SMS_MAX_BYTES = 16 * 1024;

/** Whole-message keywords (trimmed, any case, surrounding punctuation ignored), as carriers use them. */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START_WORDS = new Set(['START', 'UNSTOP']);

export function smsKeyword(text: string): 'stop' | 'start' | null {
  const word = text.trim().replace(/^[\s\p{P}]+|[\s\p{P}]+$/gu, '').toUpperCase();
  if (STOP_WORDS.has(word)) return 'stop';
  if (START_WORDS.has(word)) return 'start';
  return null;
}

const notFoundLink = () => new ApiError('resource_not_found', 'No such unsubscribe link (it may have been mistyped or changed).');

function page(title: string, inner: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${title}</title>` +
    `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style>` +
    `</head><body><h1>${title}</h1>${inner}</body></html>`;
}

function sendPage(reply: FastifyReply, html: string): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer') // the token is in the URL
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
    .send(html);
}

/** Compares through SHA-256 digests: equal length for timingSafeEqual, no length leak. */
function secretMatches(given: string | undefined, expected: string): boolean {
  const a = createHash('sha256').update(given ?? '').digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given !== undefined;
}

export async function registerInboundRoutes(app: App, deps: AppDeps): Promise<void> {
  await app.register(async (scope: App) => {
    // One-click POSTs come form-encoded (RFC 8058: `List-Unsubscribe=One-Click`) or as multipart;
    // the token in the path says everything, so the body is read (capped) and ignored.
    scope.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'], { parseAs: 'string', bodyLimit: 8 * 1024 }, (_r, _b, done) =>
      done(null, undefined),
    );

    scope.get('/unsubscribe/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
      if (!(await verifyUnsubscribeToken(deps.db, request.params.token))) throw notFoundLink();
      return sendPage(
        reply,
        page(
          'Unsubscribe',
          `<p>Stop receiving marketing emails from this sender?</p>` +
            `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    });

    scope.post('/unsubscribe/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
      const who = await verifyUnsubscribeToken(deps.db, request.params.token);
      if (!who || !(await setEmailOptOut(deps.db, who.accountId, who.contactId))) throw notFoundLink();
      request.log.info({ accountId: who.accountId, contactId: who.contactId }, 'contact unsubscribed from email');
      return sendPage(reply, page('You are unsubscribed', '<p>You will no longer receive marketing emails from this sender.</p>'));
    });
  });

  await app.register(async (scope: App) => {
    scope.post(
      '/inbound/sms',
      {
        schema: { hide: true, body: SmsBody },
        bodyLimit: INBOUND_SMS_MAX_BYTES,
        // Before the body is read: an unconfigured endpoint, a wrong secret or an oversized body
        // costs us nothing.
        onRequest: async (request: FastifyRequest) => {
          const secret = deps.config.delivery.inboundSmsSecret;
          if (!secret) throw new ApiError('route_not_found', 'Inbound SMS is not configured on this server (SWITCHBOARD_INBOUND_SMS_SECRET).');
          const given = request.headers[INBOUND_SMS_SECRET_HEADER];
          if (!secretMatches(typeof given === 'string' ? given : undefined, secret)) {
            throw new ApiError('invalid_api_key', `The ${INBOUND_SMS_SECRET_HEADER} header is missing or wrong.`);
          }
          const len = Number(request.headers['content-length'] ?? 0);
          if (len > INBOUND_SMS_MAX_BYTES) throw new ApiError('body_too_large', `The body is over ${INBOUND_SMS_MAX_BYTES} bytes.`);
        },
      },
      async (request) => {
        const from = normalisePhone(request.body.from);
        if (from.replace('+', '').length < 5) throw new ApiError('invalid_field', 'from is not a phone number.', { param: 'from' });
        const keyword = smsKeyword(request.body.text);
        if (!keyword) return { action: 'none', contacts: 0 };
        const r = await setSmsStopped(deps.db, from, keyword === 'stop');
        request.log.info({ keyword, from: maskAddress(from), matched: r.matched, changed: r.changed }, 'inbound SMS keyword');
        return { action: keyword === 'stop' ? 'stopped' : 'started', contacts: r.matched };
      },
    );
  });
}
