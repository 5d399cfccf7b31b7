// The Message as the hub shows it (the Messages screen and a contact's page): what happened to one
// email or SMS. The recipient is masked as the logs mask it and the transport's reason has
// addresses blanked, so the screen shows no more of a person's address than a log line does.
import { Type, type Static } from '@sinclair/typebox';
import { MESSAGE_CHANNELS, OUTBOX_STATUSES } from '../../domain/message.js';
import { maskAddress, redactAddresses } from '../../delivery/mask.js';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { iso, isoOrNull } from '../../lib/time.js';
import type { MessageRow } from './store.js';

export const MessageStatus = StringEnum(OUTBOX_STATUSES, {
  description: 'queued, sending, sent, failed, or unknown (the sender lost track of it after claiming it; never re-sent).',
});
export const MessageChannel = StringEnum(MESSAGE_CHANNELS, { description: 'email and sms go to the contact, team to people in the account.' });

export const HubMessage = Type.Object(
  {
    id: Uuid,
    channel: MessageChannel,
    status: MessageStatus,
    to: Type.String({ description: 'The recipient, masked as in logs (a***@example.org, ***42).' }),
    automation: Nullable(Type.Object({ id: Uuid, name: Type.String() }, { description: 'The automation whose run sent it.' })),
    automation_run_id: Nullable(Uuid),
    test: Type.Boolean({ description: 'Sent by a test run from the builder: it went to the person testing, not the contact.' }),
    contact: Nullable(Type.Object({ id: Uuid, name: Type.String() }, { description: 'The contact of that run.' })),
    attempts: Type.Integer(),
    created_at: DateTime,
    sent_at: Nullable(DateTime),
    error: Nullable(Type.String({ description: "The transport's reason for a failed message (addresses blanked)." })),
  },
  { title: 'HubMessage' },
);
export type HubMessageOut = Static<typeof HubMessage>;

export function renderMessage(r: MessageRow): HubMessageOut {
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
  };
}
