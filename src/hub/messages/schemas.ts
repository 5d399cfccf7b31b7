// The hub's message shapes: a Message as the Messages screen and a contact's page show it, and the
// list's query. Pure: TypeBox, src/domain and the shared schemas only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { MESSAGE_CHANNELS, OUTBOX_STATUSES } from '../../domain/message.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const MessageStatus = StringEnum(OUTBOX_STATUSES, {
  description: 'queued, sending, sent, failed, or unknown (the sender lost track of it after claiming it; never re-sent on its own).',
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

/** One attempt to deliver, as the message page lists it (no title: inline in the message's document). */
export const MessageAttempt = Type.Object({
  at: DateTime,
  outcome: StringEnum(['sent', 'retry', 'failed', 'unknown'] as const, {
    description: 'sent; retry (refused for now, tried again later); failed; unknown (the answer never came: never re-sent).',
  }),
  transport: Nullable(
    Type.String({ description: 'smtp, http, outbox (kept in the outbox: development), none (held back before any transport); null when not recorded.' }),
  ),
  reason: Nullable(Type.String({ description: 'Why it was not delivered, in words that name no address.' })),
  answer: Nullable(Type.String({ description: "The transport's own answer, addresses blanked; null for a delivery or when not recorded." })),
});
export type MessageAttempt = Static<typeof MessageAttempt>;

export const HubMessageDetail = Type.Object(
  {
    ...HubMessage.properties,
    to: Type.String({ description: 'The recipient: whole for owners and admins, masked as in logs for members (to_masked).' }),
    to_masked: Type.Boolean(),
    subject: Nullable(Type.String({ description: 'null for a text message.' })),
    body: Nullable(Type.String({ description: 'For owners and admins; null for members (body_hidden). Email: HTML, show it only in a sandboxed frame.' })),
    body_format: StringEnum(['html', 'text'] as const, { description: 'html for email (as its HTML part is sent), text for SMS and team notices.' }),
    body_hidden: Type.Boolean({ description: 'true for members: the body is personal data, for owners and admins only.' }),
    step: Nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The run step that queued it.' })),
    transport: Nullable(Type.String({ description: 'The transport that last answered (outbox: kept in the outbox, development).' })),
    attempt_log: Type.Array(MessageAttempt, { description: 'Every attempt, oldest first.' }),
    resend_of: Nullable(Type.String({ format: 'uuid', description: 'The message this one re-sends (Re-send): a new message with the same content and Message-ID.' })),
    resent_as: Nullable(Type.String({ format: 'uuid', description: 'The message that re-sent this one; a message is re-sent once.' })),
  },
  { title: 'HubMessageDetail' },
);
export type HubMessageDetail = Static<typeof HubMessageDetail>;

export const ResendBody = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ description: 'Re-send a message whose delivery is unknown, accepting that it may arrive twice. A failed message needs none.' }),
    ),
  },
  { additionalProperties: false, title: 'HubResendBody' },
);
export type ResendBody = Static<typeof ResendBody>;

export const MessageIdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type MessageIdParams = Static<typeof MessageIdParams>;
