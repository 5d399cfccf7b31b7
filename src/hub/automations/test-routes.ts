// The automation builder's side actions (issue 13): Send test (the draft as saved now, or a
// version) and the test run's detail for the test panel, a template preview for a contact or the
// sample contact, and rotating the webhook trigger's secret. The rules are the services'
// (src/services/automations: test-run, preview, webhook); their refusals are answered by the error handler with their catalogue codes.
import { Type } from '@sinclair/typebox';
import { notFound } from '../../domain/errors.js';
import { MAX_EMAIL_BODY, MAX_EMAIL_SUBJECT } from '../../domain/step-schemas.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { AutomationRun, AutomationRunDetail, automationRunDetail, renderRun } from '../../api/automation-runs/routes.js';
import { getAutomationRun } from '../../api/automation-runs/store.js';
import { previewTemplate } from '../../services/automations/preview.js';
import { startTestRun } from '../../services/automations/test-run.js';
import { rotateWebhook } from '../../services/automations/webhook.js';
import { actorOf, hubAccess, hubAuthOf, hubResponses, HUB_TAG } from '../kit.js';

const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

const TestBody = Type.Object(
  {
    contact_id: Uuid,
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'A published version to test; without it, the draft as saved now.' })),
  },
  { additionalProperties: false },
);
const TestStarted = Type.Object(
  {
    run: AutomationRun,
    tester_email: Type.String({ description: 'The only address the test sends to (texts come to it as emails).' }),
  },
  {
    title: 'HubAutomationTestRun',
    description: 'run.test is true; run.version is the version tested, 0 for a test of the draft (which runs no published version).',
  },
);

const PreviewBody = Type.Object(
  {
    channel: StringEnum(['email', 'sms'] as const),
    subject: Type.Optional(Type.String({ maxLength: MAX_EMAIL_SUBJECT, description: 'An email step’s subject template.' })),
    body: Type.String({ maxLength: MAX_EMAIL_BODY, description: 'The email’s HTML body or the text’s template.' }),
    contact_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
const TemplatePreview = Type.Object(
  {
    subject: Nullable(Type.String()),
    body: Type.String({ description: 'email: the rendered HTML (show it only in a sandboxed iframe); sms: the text.' }),
    segments: Type.Optional(Type.Integer({ description: 'sms: the segments it takes, which is what a send is billed by.' })),
    encoding: Type.Optional(StringEnum(['gsm7', 'ucs2'] as const)),
    micros: Type.Optional(Type.Integer({ description: 'sms: the price of one send, in millionths of the currency unit.' })),
    contact: Nullable(Type.Object({ id: Uuid, name: Type.String() }, { description: 'null: the sample contact Ada Lovelace <ada@example.com>.' })),
  },
  { title: 'HubTemplatePreview' },
);

const Webhook = Type.Object(
  {
    url: Type.String({ description: 'POST {email, first_name?, last_name?, phone?} here to start a run.' }),
    secret: Type.String({ description: 'Shown once; only its hash is stored. The previous URL no longer works.' }),
  },
  { title: 'HubAutomationWebhook' },
);

export function registerHubAutomationTestRoutes(hub: App, deps: AppDeps): void {
  hub.post(
    '/automations/:id/test',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubTestAutomation',
        summary: 'Send a test',
        description:
          'Runs the draft as saved now (or the given version) for one contact with test: true: every message goes only to the signed-in ' +
          'user’s address, no record changes, no counter moves. 404 for an unknown contact or version; 422 automation_not_publishable ' +
          '(param steps[i].config.<field>) for a draft whose steps are missing or incomplete.',
        params: IdParams,
        body: TestBody,
        response: hubResponses('member', { 201: TestStarted }),
      },
      config: hubAccess('member'),
    },
    async (request, reply) => {
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
      const run = await getAutomationRun(deps.db, auth.accountId, started.id);
      if (!run) throw notFound('automation run');
      reply.code(201);
      return { run: renderRun(run), tester_email: started.tester_email };
    },
  );

  hub.get(
    '/automation-runs/:id',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubGetAutomationRun',
        summary: 'An automation run with its steps',
        description: "/v1's automation run detail (the builder's test panel polls it); what a step sent is never included.",
        params: IdParams,
        response: hubResponses('member', { 200: AutomationRunDetail }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const detail = await automationRunDetail(deps.db, hubAuthOf(request).accountId, request.params.id);
      if (!detail) throw notFound('automation run');
      return detail;
    },
  );

  hub.post(
    '/automations/preview',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubPreviewAutomationTemplate',
        summary: 'Preview an email or text',
        description:
          'Renders the template as the step would for the contact (404 when archived, erased or unknown) or for the sample contact ' +
          'Ada Lovelace <ada@example.com>; a text also gets its segments, encoding and price per send. Nothing is saved or sent.',
        body: PreviewBody,
        response: hubResponses('member', { 200: TemplatePreview }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const { channel, subject, body, contact_id } = request.body;
      return previewTemplate(deps.db, deps.config, hubAuthOf(request).accountId, { channel, subject, body, contactId: contact_id });
    },
  );

  hub.post(
    '/automations/:id/webhook',
    {
      schema: {
        tags: [HUB_TAG],
        operationId: 'hubRotateAutomationWebhook',
        summary: 'A new webhook URL',
        description: 'A new secret for the webhook trigger, shown once; the previous URL stops working at once. Audited.',
        params: IdParams,
        response: hubResponses('member', { 200: Webhook }),
      },
      config: hubAccess('member'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      return rotateWebhook(deps.db, deps.config, { accountId: auth.accountId, automationId: request.params.id }, actorOf(auth));
    },
  );
}
