// The development transport (default of the embedded start): nothing leaves the machine. The row
// is settled `sent` with transport `outbox`, which the hub and the run detail show as "stored in
// the outbox only"; the start-up banner names it, and production refuses it (config.ts).
import { DEVELOPMENT_TRANSPORT } from '../../domain/providers.js';
import type { Transport } from '../types.js';

export const OUTBOX_ONLY_NOTE = 'stored in the outbox only (development transport; nothing was sent)';

export function outboxTransport(): Transport {
  return {
    // Recorded on the row (outbox.transport) as it is settled: the hub's "Kept in the outbox" label
    // reads that fact, so it stays true of the message whatever the configuration says later.
    name: DEVELOPMENT_TRANSPORT,
    development: true,
    async send() {
      // Intentionally nothing: the outbox row itself is the delivered message.
    },
  };
}
