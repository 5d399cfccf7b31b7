// The users screen's shapes: a user of the account, the list, an invitation, and the invite and
// role bodies. Pure: TypeBox, src/domain and the shared schemas only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { USER_ROLES } from '../../domain/account.js';
import { DateTime, Line, StringEnum, Uuid } from '../../http/schemas.js';

export const HubUser = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.String({ description: 'May be empty.' }),
    role: StringEnum(USER_ROLES),
    has_password: Type.Boolean({ description: 'False until the user has used their set-password link.' }),
    created_at: DateTime,
  },
  { title: 'HubUser' },
);
export type HubUser = Static<typeof HubUser>;
export const UserList = Type.Object({ data: Type.Array(HubUser, { description: 'Oldest first.' }) }, { title: 'HubUserList' });
export type UserList = Static<typeof UserList>;
export const Invitation = Type.Object(
  {
    user: HubUser,
    set_password_url: Type.String({ description: 'One-time link (7 days) where the user sets a password; shown only in this response. (Also the answer to a new set-password link.)' }),
    emailed: Type.Boolean({ description: 'True when the link was also queued as an email to the user.' }),
  },
  { title: 'HubInvitation' },
);
export type Invitation = Static<typeof Invitation>;
export const InviteBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    name: Type.Optional(Line({ maxLength: 200 })),
    role: StringEnum(USER_ROLES),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;
export const EmailBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }, { additionalProperties: false });
export type EmailBody = Static<typeof EmailBody>;
export const RoleBody = Type.Object({ role: StringEnum(USER_ROLES) }, { additionalProperties: false });
export type RoleBody = Static<typeof RoleBody>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
