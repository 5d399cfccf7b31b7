// How a transport reports a message it could not deliver. The sender settles the row from it:
// `failed` when the message certainly did not leave (refused, never connected), `unknown` when it
// may have (the connection dropped or timed out after the message was handed over). Neither is
// re-sent automatically; the difference tells a person what to check.
export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly outcome: 'failed' | 'unknown',
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Network errors that happen before anything was sent: the message certainly did not leave. */
export const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNABORTED']);
