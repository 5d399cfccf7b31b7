// The development transport (default of the embedded start): nothing leaves the machine. The row
// is settled `sent` with transport `outbox`, which the hub and the run detail show as "stored in
// the outbox only"; the start-up banner names it, and production refuses it (config.ts).
import type { Transport } from '../types.js';

export const OUTBOX_ONLY_NOTE = 'stored in the outbox only (development transport; nothing was sent)';

export function outboxTransport(): Transport {
  return {
    name: 'outbox',
    development: true,
    async send() {
      // Intentionally nothing: the outbox row itself is the delivered message.
    },
  };
}
