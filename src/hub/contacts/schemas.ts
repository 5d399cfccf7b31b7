// The hub's contact shapes: a contact's page, its timeline, erasure. The
// contact itself and its bodies are /v1's (api/contacts/schemas.ts). Pure: TypeBox, src/domain and
// other schema modules only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { Contact } from '../../api/contacts/schemas.js';

export const HubContactDetail = Type.Object(
  {
    contact: Contact,
    sms_stopped: Type.Boolean({ description: 'The person replied STOP to an SMS (only their reply START lifts it).' }),
  },
  { title: 'HubContactDetail' },
);
export type HubContactDetail = Static<typeof HubContactDetail>;

export const EraseBody = Type.Object(
  { confirm: Type.String({ minLength: 1, maxLength: 400, description: "The contact's email address or its id, typed by the user." }) },
  { additionalProperties: false },
);
export type EraseBody = Static<typeof EraseBody>;
export const Erased = Type.Object(
  { id: Uuid, erased: Type.Literal(true), runs_stopped: Type.Integer(), messages_deleted: Type.Integer() },
  { title: 'HubContactErased' },
);
export type Erased = Static<typeof Erased>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

export const TIMELINE_KINDS = ['run', 'message', 'change'] as const;
export const TimelineEntry = Type.Object(
  {
    kind: StringEnum(TIMELINE_KINDS, { description: 'run: an automation run (its page); message: a message its runs sent (its page); change: an audit entry.' }),
    id: Uuid,
    at: DateTime,
    text: Type.String({ description: 'What happened, in words ("Welcome started", "Email “Hi Ada”", "Edited by Olivia: last name").' }),
    status: Nullable(Type.String({ description: "A run's or a message's status; null for a change." })),
    status_label: Nullable(Type.String({ description: 'That status in words.' })),
    test: Type.Boolean({ description: 'A test run from the builder, or its message (sent to the person testing).' }),
  },
  { title: 'HubContactTimelineEntry' },
);
export type TimelineEntry = Static<typeof TimelineEntry>;
export const TimelineQuery = Type.Object({ ...ListQuery }, { additionalProperties: false });
export type TimelineQuery = Static<typeof TimelineQuery>;
