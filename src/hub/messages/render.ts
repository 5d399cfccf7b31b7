// The Message as the hub shows it (the Messages screen and a contact's page): what happened to one
// email or SMS. The recipient is masked as the logs mask it and the transport's reason has
// addresses blanked, so the screen shows no more of a person's address than a log line does
// (schemas.ts has the shape).
import { maskAddress, redactAddresses } from '../../delivery/mask.js';
import { keptInOutbox } from '../../domain/providers.js';
import { iso, isoOrNull } from '../../lib/time.js';
import type { HubMessage } from './schemas.js';
import type { MessageRow } from './store.js';

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
