// POST /automations/{id}/enrollments: enroll contacts in a published automation. The route file
// is the contract.
import type { AppDeps } from '../../http/deps.js';
import { meta, v1Responses } from '../../http/route.js';
import { authOf, type App } from '../../http/route-kit.js';
import { idempotent } from '../../idempotency/index.js';
import { enroll } from '../../services/enrollments/service.js';
import { EnrollBody, EnrollHeaders, EnrollmentResult, IdParams } from './schemas.js';

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
