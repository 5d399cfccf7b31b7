// SMS through an HTTP webhook provider: POST {to, body, message_id} as JSON to the configured URL.
// A 2xx answer means the provider took the message. 429 and 5xx say "not now": retried (honouring
// Retry-After); any other answer is a refusal: failed. A failure before the request was fully
// written (refused, unreachable, no connection in time, reset mid-request) lost nothing: retried.
// No answer in time after the request went out, or a connection that broke then, is `unknown`:
// the provider may have sent it, and message_id lets its side de-duplicate should a person
// decide to re-send.
import http from 'node:http';
import https from 'node:https';
import type { Transport } from '../types.js';
import { DeliveryError, NEVER_CONNECTED, parseRetryAfter } from './errors.js';

export interface SmsHttpOptions {
  url: string;
  token: string | null;
  timeoutMs: number;
}

export function smsHttpTransport(opts: SmsHttpOptions): Transport {
  const url = new URL(opts.url);
  const client = url.protocol === 'https:' ? https : http;
  return {
    name: 'http',
    development: false,
    send(msg) {
      const payload = Buffer.from(JSON.stringify({ to: msg.to, body: msg.body, message_id: msg.messageId }));
      return new Promise<void>((resolve, reject) => {
        // Handed over once the whole request is written: before that the provider cannot have a
        // complete message to act on (Content-Length tells it what complete is).
        let written = false;
        let settled = false;
        const settle = (err: DeliveryError | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        };
        const req = client.request(url, {
          method: 'POST',
          // A fresh connection per message: a kept-alive one the provider closed would be read as a broken send.
          agent: false,
          headers: {
            'content-type': 'application/json',
            'content-length': String(payload.length),
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          },
        });
        const timer = setTimeout(() => {
          req.destroy();
          settle(
            written
              ? new DeliveryError(`Delivery outcome unknown: the SMS provider did not answer within ${opts.timeoutMs} ms; not resent`, 'unknown', {
                  reason: `the SMS provider did not answer within ${opts.timeoutMs} ms after the message was sent`,
                })
              : new DeliveryError(`SMS provider not reached within ${opts.timeoutMs} ms`, 'retry', { reason: `the SMS provider was not reached within ${opts.timeoutMs} ms` }),
          );
        }, opts.timeoutMs);
        req.on('finish', () => (written = true));
        req.on('error', (err) => {
          const code = (err as { code?: string }).code ?? 'network error';
          if (NEVER_CONNECTED.has(code)) return settle(new DeliveryError(`SMS provider unreachable (${code})`, 'retry', { reason: `the SMS provider could not be reached (${code})` }));
          if (!written) return settle(new DeliveryError(`SMS provider connection broke before the message was sent (${code})`, 'retry', { reason: `the connection to the SMS provider broke before the message was sent (${code})` }));
          settle(
            new DeliveryError(`Delivery outcome unknown: the connection to the SMS provider broke (${code}); not resent`, 'unknown', {
              reason: `the connection to the SMS provider broke after the message was sent (${code})`,
            }),
          );
        });
        req.on('response', (res) => {
          // The answer's body is not ours to keep (it may echo the number): let it go.
          res.resume();
          res.on('error', () => {});
          const status = res.statusCode ?? 0;
          if (status >= 200 && status <= 299) return settle(null);
          const detail = `SMS provider answered HTTP ${status}`;
          if (status === 429 || status >= 500) {
            const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
            return settle(new DeliveryError(detail, 'retry', { reason: `the SMS provider answered HTTP ${status}`, retryAfterMs }));
          }
          // A redirect is an answer we do not follow (the body would go somewhere unconfigured).
          settle(new DeliveryError(detail, 'failed', { reason: `the SMS provider refused the message (HTTP ${status})` }));
        });
        req.end(payload);
      });
    },
  };
}
