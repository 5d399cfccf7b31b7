// The home screen's getting-started checklist: one cheap read of what the account has done first
// (a project, a key, a workflow, an automation, a contact, real email), and a person's choice to
// hide it. The email step reads the configured transport: mail is real only over smtp.
import { mayAdminister } from '../../domain/hub.js';
import { notFound } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { hubAuthOf, hubRoute, type HubAuth } from '../kit.js';
import { GettingStarted, GettingStartedBody, START_STEPS } from './schemas.js';
import { readStartFacts, setStartHidden } from './store.js';

export function registerHubGettingStartedRoutes(hub: App, deps: AppDeps): void {
  const transport = deps.config.delivery.emailTransport;
  const read = async (auth: HubAuth): Promise<GettingStarted> => {
    const facts = await readStartFacts(deps.db, auth.accountId, auth.userId);
    const done = { ...facts, email: transport === 'smtp' };
    // Keys are for owners and admins: a member is not asked to do what they may not.
    const steps = START_STEPS.filter((k) => k !== 'api_key' || mayAdminister(auth.role)).map((key) => ({ key, done: done[key] }));
    return { steps, complete: steps.every((s) => s.done), hidden: facts.hidden, email_transport: transport };
  };

  hub.get('/getting-started', hubRoute('member', {
    operationId: 'hubGetGettingStarted',
    summary: 'The getting-started checklist: which first steps are done',
    response: { 200: GettingStarted },
  }), async (request) => read(hubAuthOf(request)));

  hub.put('/getting-started', hubRoute('member', {
    operationId: 'hubSetGettingStarted',
    summary: 'Hide or show the getting-started checklist for the signed-in person',
    description: 'Kept per user (on every browser); not audited: it changes only what this person sees.',
    body: GettingStartedBody,
    response: { 200: GettingStarted },
  }), async (request) => {
    const auth = hubAuthOf(request);
    if (!(await setStartHidden(deps.db, auth.accountId, auth.userId, request.body.hidden))) throw notFound('user');
    return read(auth);
  });
}
