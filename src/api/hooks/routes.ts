// Webhook triggers (outside /v1: the URL's secret is the credential, not an API key):
// POST /hooks/automations/{secret} with {email, first_name?, last_name?, phone?} finds or creates
// the contact and starts a run of the automation, with its Run-only-if filter applied. Bodies are
// capped at 16 KiB and each automation takes at most 60 calls a minute. The owning account's state
// gets the API's answers (403 account_suspended, account_closed, subscription_inactive: a webhook
// writes, so a lapsed plan refuses it too), before any contact is found or created.
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { ApiError } from '../../domain/errors.js';
import { accountStateError } from '../../http/pipeline.js';
import { lockAccountState } from '../../accounts/store.js';
import { errorResponses } from '../../http/schemas.js';
import { fireContactCreated } from '../../engine/automations/contact-created.js';
import { startTriggeredRun } from '../../engine/automations/triggers.js';
import { checkedEmail, erasureHmacs, findOrCreateContact, isErasedEmail } from '../../services/contacts/service.js';
import { webhookHash } from '../../services/automations/webhook.js';
import { HookBody, HookParams } from './schemas.js';
import { automationByWebhookHash } from './store.js';

export const WEBHOOK_BODY_LIMIT = 16_384;
export const WEBHOOK_CALLS_PER_MINUTE = 60;

export function registerHookRoutes(app: App, deps: AppDeps): void {
  app.post(
    '/hooks/automations/:secret',
    {
      bodyLimit: WEBHOOK_BODY_LIMIT,
      schema: { hide: true, params: HookParams, body: HookBody, response: errorResponses([400, 403, 404, 409, 413, 415, 422, 429]) },
    },
    async (request, reply) => {
      const { secret } = request.params;
      const body = request.body;
      const email = checkedEmail(body.email);
      const found = await automationByWebhookHash(deps.db, webhookHash(secret));
      if (!found) throw new ApiError('route_not_found', 'No endpoint at this path.');
      const refused = accountStateError(found.state, found.subscription, true);
      if (refused) throw refused;
      const hit = await deps.counters.requests.hit(`wh:${found.id}`);
      if (hit.count > WEBHOOK_CALLS_PER_MINUTE) {
        const s = Math.max(1, Math.ceil(hit.resetMs / 1000));
        throw new ApiError('rate_limited', `This webhook takes ${WEBHOOK_CALLS_PER_MINUTE} calls a minute; wait ${s} s.`, {
          headers: { 'retry-after': String(s) },
        });
      }
      // Every kept erasure secret version, as POST /contacts checks: an address erased before a
      // rotation is still refused.
      const hmacs = await erasureHmacs(deps.db, email.normalized);
      const outcome = await deps.db.transaction(async (tx) => {
        // Again under the account row's share lock: a suspension committed since the check above
        // is seen here, and one committed later waits for this transaction.
        const account = await lockAccountState(tx, found.account_id);
        const refusedNow = account ? accountStateError(account.state, account.subscription, true) : null;
        if (refusedNow) throw refusedNow;
        if (await isErasedEmail(tx, found.account_id, hmacs)) {
          throw new ApiError('contact_do_not_contact', 'This address belongs to someone erased at their request; it cannot be added.', {
            param: 'email',
          });
        }
        const contact = await findOrCreateContact(tx, found.account_id, { ...body, email: email.email });
        const started = await startTriggeredRun(tx, {
          accountId: found.account_id,
          automationId: found.id,
          contactId: contact.id,
          startedBy: 'Webhook',
        });
        if (started.status === 'ignored' && started.reason === 'not_published') {
          throw new ApiError('automation_not_published', 'The automation is a draft or paused; no run was started.');
        }
        // A contact this webhook created is a new contact like any other: contact.created fires.
        if (contact.created) await fireContactCreated(tx, found.account_id, contact.id);
        return { contact, started };
      });
      reply.code(202);
      return {
        automation_id: found.id,
        contact_id: outcome.contact.id,
        contact_created: outcome.contact.created,
        status: outcome.started.status,
        run_id: 'runId' in outcome.started ? outcome.started.runId : null,
        reason: 'reason' in outcome.started ? outcome.started.reason : null,
      };
    },
  );
}
