// The set-password link's shapes: whom a live link is for, and the body that sets the password.
// Pure: TypeBox and the shared schemas only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from '../../http/schemas.js';

export const LinkTarget = Type.Object(
  { account_id: Uuid, account_name: Type.String(), email: Type.String(), name: Type.String(), expires_at: DateTime },
  { title: 'HubSetPasswordLink' },
);
export type LinkTarget = Static<typeof LinkTarget>;
export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
export type TokenParams = Static<typeof TokenParams>;
export const SetBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);
export type SetBody = Static<typeof SetBody>;

export const ForgotBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }, { additionalProperties: false });
export type ForgotBody = Static<typeof ForgotBody>;
export const ForgotAnswer = Type.Object(
  { sends_email: Type.Boolean({ description: 'False with the development outbox: no link is emailed; ask an owner or admin of the account for one.' }) },
  { title: 'HubForgotPassword' },
);
export type ForgotAnswer = Static<typeof ForgotAnswer>;
