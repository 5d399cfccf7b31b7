// SMS through an HTTP webhook provider: POST {to, body, message_id} as JSON to the configured URL.
// A 2xx answer means the provider took the message; any other answer is `failed`. No answer in
// time, or a connection that broke after the request went out, is `unknown`: the provider may
// have sent it, and message_id lets its side de-duplicate should a person decide to re-send.
import type { Transport } from '../types.js';
import { DeliveryError, NEVER_CONNECTED } from './errors.js';

export interface SmsHttpOptions {
  url: string;
  token: string | null;
  timeoutMs: number;
}

function causeCode(err: unknown): string | undefined {
  const c = (err as { cause?: { code?: string } })?.cause;
  return c?.code ?? (err as { code?: string })?.code;
}

export function smsHttpTransport(opts: SmsHttpOptions): Transport {
  return {
    name: 'http',
    development: false,
    async send(msg) {
      let res: Response;
      try {
        res = await fetch(opts.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          },
          body: JSON.stringify({ to: msg.to, body: msg.body, message_id: msg.messageId }),
          signal: AbortSignal.timeout(opts.timeoutMs),
          // A redirect is an answer we do not follow (the body would go somewhere unconfigured).
          redirect: 'manual',
        });
      } catch (err) {
        const name = (err as Error)?.name;
        if (name === 'TimeoutError' || name === 'AbortError') {
          throw new DeliveryError(`Delivery outcome unknown: the SMS provider did not answer within ${opts.timeoutMs} ms; not resent`, 'unknown');
        }
        const code = causeCode(err);
        if (code && NEVER_CONNECTED.has(code)) throw new DeliveryError(`SMS provider unreachable (${code})`, 'failed');
        throw new DeliveryError(`Delivery outcome unknown: the connection to the SMS provider broke (${code ?? 'network error'}); not resent`, 'unknown');
      }
      // The answer's body is not ours to keep (it may echo the number); drain it and let go.
      await res.body?.cancel().catch(() => {});
      if (res.status < 200 || res.status > 299) throw new DeliveryError(`SMS provider answered HTTP ${res.status}`, 'failed');
    },
  };
}
