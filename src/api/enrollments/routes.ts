// POST /automations/{id}/enrollments: enroll contacts in a published automation. The route file
// is the contract.
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { StringEnum, Uuid } from '../../http/schemas.js';
import { idempotent } from '../../idempotency/index.js';
import { enroll } from '../../services/enrollments/service.js';

const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
const EnrollBody = Type.Object(
  {
    contact_ids: Type.Array(Uuid, { minItems: 1, maxItems: 500, description: '1 to 500 contact ids.' }),
  },
  { additionalProperties: false },
);
// Required: a request without it is 400 missing_idempotency_key (src/http/validation.ts).
const EnrollHeaders = Type.Object({
  'idempotency-key': Type.String({ description: '8 to 64 printable characters without spaces; a UUID is suitable.' }),
});
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

export function registerEnrollmentRoutes(app: App, deps: AppDeps): void {
  app.post(
    '/automations/:id/enrollments',
    {
      config: meta({ scope: 'automations:enroll', write: true }),
      schema: {
        operationId: 'enrollContacts',
        summary: 'Enroll contacts',
        description:
          'Enrolls contacts in a published automation, which then sends real emails and texts. Each id is enrolled (gets a run) or ' +
          'skipped with a reason. Idempotency-Key is required; a retry with the same key and body returns the first answer.',
        tags: ['Automations'],
        params: IdParams,
        headers: EnrollHeaders,
        body: EnrollBody,
        response: v1Responses({ 200: EnrollmentResult }, [409, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { contact_ids } = request.body;
      const auth = authOf(request);
      return idempotent(
        request,
        reply,
        { db: deps.db, accountId: auth.accountId, lockTimeoutMs: deps.config.idempotencyLockTimeoutMs, required: true },
        async (tx) => ({
          status: 200,
          body: await enroll(tx, {
            accountId: auth.accountId,
            automationId: id.toLowerCase(),
            contactIds: contact_ids.map((c) => c.toLowerCase()),
            keyId: auth.keyId,
            keyName: auth.keyName,
            keyPrefix: auth.keyPrefix,
          }),
        }),
      );
    },
  );
}
