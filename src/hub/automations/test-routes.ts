// The automation builder's side actions (issue 13): Send test (the draft as saved now, or a
// version; the test panel then polls the run's page route, src/hub/automation-runs), a template preview for a contact or the
// sample contact, and rotating the webhook trigger's secret. The rules are the services'
// (src/services/automations: test-run, preview, webhook); their refusals are answered by the error handler with their catalogue codes.
import { found } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { renderRun } from '../../api/automation-runs/render.js';
import { getAutomationRun } from '../../services/automation-runs/read-store.js';
import { previewTemplate } from '../../services/automations/preview.js';
import { startTestRun } from '../../services/automations/test-run.js';
import { rotateWebhook } from '../../services/automations/webhook.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { IdParams, PreviewBody, TemplatePreview, TestBody, TestStarted, Webhook } from './schemas.js';

export function registerHubAutomationTestRoutes(hub: App, deps: AppDeps): void {
  hub.post('/automations/:id/test', hubRoute('member', {
    operationId: 'hubTestAutomation',
    summary: 'Send a test',
    description:
      'Runs the draft as saved now (or the given version) for one contact with test: true: every message goes only to the signed-in ' +
      'user’s address, no record changes, no counter moves. The Run-only-if filter is not applied; filter says whether the ' +
      'contact matches it (a run started by the trigger would skip them otherwise). 404 for an unknown contact or version; 422 automation_not_publishable ' +
      '(param steps[i].config.<field>) for a draft whose steps are missing or incomplete.',
    params: IdParams,
    body: TestBody,
    response: { 201: TestStarted },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const { contact_id, version } = request.body;
    const started = await startTestRun(
      deps.db,
      {
        automationId: request.params.id,
        accountId: auth.accountId,
        contactId: contact_id,
        userId: auth.userId,
        target: version === undefined ? 'draft' : { version },
      },
      actorOf(auth),
    );
    const run = found(await getAutomationRun(deps.db, auth.accountId, started.id), 'automation run');
    reply.code(201);
    return { run: renderRun(run), tester_email: started.tester_email, filter: started.filter };
  });

  hub.post('/automations/preview', hubRoute('member', {
    operationId: 'hubPreviewAutomationTemplate',
    summary: 'Preview an email or text',
    description:
      'Renders the template as the step would for the contact (404 when archived, erased or unknown) or for the sample contact ' +
      'Ada Lovelace <ada@example.com>; a text also gets its segments, encoding and price per send. Nothing is saved or sent.',
    body: PreviewBody,
    response: { 200: TemplatePreview },
  }), async (request) => {
    const { channel, subject, body, contact_id } = request.body;
    return previewTemplate(deps.db, deps.config, hubAuthOf(request).accountId, { channel, subject, body, contactId: contact_id });
  });

  hub.post('/automations/:id/webhook', hubRoute('member', {
    operationId: 'hubRotateAutomationWebhook',
    summary: 'A new webhook URL',
    description: 'A new secret for the webhook trigger, shown once; the previous URL stops working at once. Audited.',
    params: IdParams,
    response: { 200: Webhook },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return rotateWebhook(deps.db, deps.config, { accountId: auth.accountId, automationId: request.params.id }, actorOf(auth));
  });
}
