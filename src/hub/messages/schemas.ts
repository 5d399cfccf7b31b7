// The hub's message shapes: a Message as the Messages screen and a contact's page show it, and the
// list's query. Pure: TypeBox, src/domain and the shared schemas only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { MESSAGE_CHANNELS, OUTBOX_STATUSES } from '../../domain/message.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const MessageStatus = StringEnum(OUTBOX_STATUSES, {
  description: 'queued, sending, sent, failed, or unknown (the sender lost track of it after claiming it; never re-sent).',
});
export type MessageStatus = Static<typeof MessageStatus>;
export const MessageChannel = StringEnum(MESSAGE_CHANNELS, { description: 'email and sms go to the contact, team to people in the account.' });
export type MessageChannel = Static<typeof MessageChannel>;

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
    kept_in_outbox: Type.Boolean({ description: 'Settled by the development transport: kept in the outbox, never delivered to anyone.' }),
  },
  { title: 'HubMessage' },
);
export type HubMessage = Static<typeof HubMessage>;

export const ListMessagesQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(MessageStatus),
    channel: Type.Optional(MessageChannel),
    contact_id: Type.Optional(Uuid),
    automation_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type ListMessagesQuery = Static<typeof ListMessagesQuery>;
