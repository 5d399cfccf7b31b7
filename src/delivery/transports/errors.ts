// How a transport reports a message it could not deliver. The sender settles the row from it:
// - `retry`: the message certainly did not leave and the trouble may pass (connection refused or
//   broken before the message was handed over, a DNS failure, SMTP 4xx, HTTP 429/5xx, a connect
//   timeout): it is tried again later, with backoff, within the retry budget;
// - `failed`: a permanent refusal (SMTP 5xx, HTTP 4xx other than 429) or an unusable message;
// - `unknown`: the message may have left (the connection dropped or went silent after it was
//   handed over); never re-sent, because a duplicate is worse than a visible unknown.
// `message` is the operator's detail (kept on the outbox row, may quote the server); `reason` is
// a short text that never names an address, shown on the run's step and in the attempt log.
export type DeliveryOutcome = 'retry' | 'failed' | 'unknown';

export class DeliveryError extends Error {
  readonly reason: string;
  /** The server's Retry-After, in ms, when it gave one (the next attempt waits at least this long). */
  readonly retryAfterMs: number | null;

  constructor(message: string, readonly outcome: DeliveryOutcome, opts: { reason?: string; retryAfterMs?: number | null } = {}) {
    super(message);
    this.name = 'DeliveryError';
    this.reason = opts.reason ?? message;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

/** Network errors that happen before anything was sent: the message certainly did not leave. */
export const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNABORTED']);

/** Of those, the ones a moment may cure (a host that does not exist at all is also retried: DNS can fail for a while). */
export const DNS_FAILURE = new Set(['ENOTFOUND', 'EAI_AGAIN']);

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
