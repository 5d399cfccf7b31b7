// Enrollment's schemas: the body, the headers and the result. Pure: TypeBox and src/domain only.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Uuid } from '../../http/schemas.js';

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
export const EnrollBody = Type.Object(
  {
    contact_ids: Type.Array(Uuid, { minItems: 1, maxItems: 500, description: '1 to 500 contact ids.' }),
  },
  { additionalProperties: false },
);
export type EnrollBody = Static<typeof EnrollBody>;
// Required: a request without it is 400 missing_idempotency_key (src/http/validation.ts).
export const EnrollHeaders = Type.Object({
  'idempotency-key': Type.String({ description: '8 to 64 printable characters without spaces; a UUID is suitable.' }),
});
export type EnrollHeaders = Static<typeof EnrollHeaders>;
export const EnrollmentResult = Type.Object(
  {
    automation_id: Uuid,
    enrolled: Type.Integer({ description: 'Number of contacts enrolled.' }),
    runs: Type.Array(Type.Object({ id: Uuid, contact_id: Uuid })),
    skipped: Type.Array(
      Type.Object({
        contact_id: Uuid,
        reason: StringEnum(['not_found', 'erased', 'already_enrolled', 'enrolled_before', 'too_many_automations']),
      }),
    ),
  },
  { title: 'EnrollmentResult' },
);
export type EnrollmentResult = Static<typeof EnrollmentResult>;
