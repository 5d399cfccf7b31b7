// The automation webhook's schemas (POST /hooks/{secret}, outside the document). Pure: TypeBox and
// src/domain only.
import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_MAX_LENGTH } from '../../domain/contact.js';
import { Line } from '../../http/schemas.js';

// A wrong secret is simply not found (404).
export const HookParams = Type.Object({ secret: Type.String({ maxLength: 200 }) });
export type HookParams = Static<typeof HookParams>;
export const HookBody = Type.Object(
  {
    // The one address rule of POST /contacts (src/lib/email.ts), checked in the handler.
    email: Type.String({ maxLength: EMAIL_MAX_LENGTH }),
    first_name: Type.Optional(Line({ maxLength: 200 })),
    last_name: Type.Optional(Line({ maxLength: 200 })),
    phone: Type.Optional(Line({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type HookBody = Static<typeof HookBody>;
