// "Your profile": the signed-in person's own user in the picked account (name, email, password),
// and the public confirmation of a new email. Pure: TypeBox, src/domain and the shared schemas
// only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { USER_ROLES } from '../../domain/account.js';
import { DateTime, Line, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

export const Profile = Type.Object(
  {
    id: Uuid,
    email: Type.String({ description: 'The address this user signs in with now.' }),
    name: Type.String({ description: 'May be empty.' }),
    role: StringEnum(USER_ROLES),
    account_name: Type.String(),
    pending_email: Nullable(Type.String({ description: 'A new address waiting for its confirmation link to be used; null when none.' })),
    pending_email_expires_at: Nullable(DateTime),
    sends_email: Type.Boolean({ description: 'True when the hub can send email (SMTP): only then can one change one\'s own email.' }),
  },
  { title: 'HubProfile' },
);
export type Profile = Static<typeof Profile>;

export const NameBody = Type.Object({ name: Line({ maxLength: 200 }) }, { additionalProperties: false });
export type NameBody = Static<typeof NameBody>;

const Password = Type.String({ minLength: 1, maxLength: 1024 });
export const PasswordBody = Type.Object({ current_password: Password, new_password: Password }, { additionalProperties: false });
export type PasswordBody = Static<typeof PasswordBody>;
export const PasswordChanged = Type.Object(
  { other_sessions_ended: Type.Integer({ description: 'How many other sessions of this user were signed out.' }) },
  { title: 'HubPasswordChanged' },
);
export type PasswordChanged = Static<typeof PasswordChanged>;

export const EmailBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), current_password: Password },
  { additionalProperties: false },
);
export type EmailBody = Static<typeof EmailBody>;
export const PendingEmail = Type.Object(
  { pending_email: Type.String(), expires_at: DateTime },
  { title: 'HubPendingEmail', description: 'A link was emailed to the new address; the change takes effect when it is used.' },
);
export type PendingEmail = Static<typeof PendingEmail>;

export const ConfirmEmailBody = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
export type ConfirmEmailBody = Static<typeof ConfirmEmailBody>;
export const EmailConfirmed = Type.Object({ email: Type.String(), account_name: Type.String() }, { title: 'HubEmailConfirmed' });
export type EmailConfirmed = Static<typeof EmailConfirmed>;
