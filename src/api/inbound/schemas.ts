// The unsubscribe link's and the inbound SMS webhook's schemas (outside the document). Pure:
// TypeBox only.
import { Type, type Static } from '@sinclair/typebox';

// Any token text reaches the check, so every bad link is the same 404 (never a 400 that tells forms apart).
export const TokenParams = Type.Object({ token: Type.String() });
export type TokenParams = Static<typeof TokenParams>;
export const SmsBody = Type.Object(
  {
    from: Type.String({ minLength: 1, maxLength: 64, description: 'The number that texted.' }),
    to: Type.Optional(Type.String({ maxLength: 64, description: 'Our number it texted; recorded, not used yet.' })),
    text: Type.String({ maxLength: 4096 }),
  },
  // Providers add fields of their own (ids, timestamps): accepted and ignored.
  { additionalProperties: true },
);
export type SmsBody = Static<typeof SmsBody>;
