// The audit log's hub schemas: an entry and the list's query. Pure: TypeBox, src/domain and the
// shared schemas only, so the web app reads the same shapes.
import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_ACTOR_KINDS } from '../../domain/hub.js';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { AUDIT_ACTIONS } from '../../domain/audit.js';

export const AuditEntry = Type.Object(
  {
    id: Uuid,
    at: DateTime,
    actor: Type.Object({
      kind: StringEnum(AUDIT_ACTOR_KINDS),
      id: Nullable(Uuid),
      label: Type.String({ description: '"Name <email>" of the user when it acted, or "operator (CLI)".' }),
      name: Nullable(Type.String({ description: "The user's name (or email) now; null for the operator or a removed user." })),
    }),
    action: Type.String({ description: `One of ${AUDIT_ACTIONS.join(', ')}.` }),
    object: Type.Object({
      kind: Type.String(),
      id: Type.String(),
      name: Nullable(Type.String({ description: 'Its name now (a run: its workflow\'s); null once it is deleted, erased or removed.' })),
    }),
    detail: Type.Record(Type.String(), Type.Unknown(), { description: 'What changed; never a secret or a message body.' }),
  },
  { title: 'HubAuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntry>;
export const AuditQuery = Type.Object(
  {
    ...ListQuery,
    action: Type.Optional(StringEnum(AUDIT_ACTIONS)),
    actor: Type.Optional(Type.Union([Uuid, Type.Literal('operator')], { description: "A user's id, or operator." })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;
