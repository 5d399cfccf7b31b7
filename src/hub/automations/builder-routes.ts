// The automation builder's API (issue 13): create an automation from a definition, read it as the
// editor shows it, save the draft, the diff against the published version, the versions, copy and
// delete. Rules are the services' (src/services/automations); a definition problem is 422
// invalid_field with param the body path the fixture validator names, a draft that cannot be
// published 422 automation_not_publishable with param the first problem's path.
import { getAutomation } from '../../services/automations/read-store.js';
import { renderAutomation } from '../../api/automations/summary.js';
import { diffAutomation, type DiffStep } from '../../domain/automation-diff.js';
import { notFound } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { iso } from '../../lib/time.js';
import { copyAutomation, createAutomation, deleteAutomation, editorState, versionsOf, versionView, type AutomationDefinition } from '../../services/automations/definition.js';
import { editDraft } from '../../services/automations/service.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { AutomationDiff, AutomationEditor, CreateBody, Deleted, DraftBody, IdParams, VersionList, VersionParams, VersionView } from './schemas.js';

export function registerHubAutomationBuilderRoutes(hub: App, deps: AppDeps): void {
  const editor = async (accountId: string, id: string) => {
    const [state, row] = await Promise.all([editorState(deps.db, accountId, id), getAutomation(deps.db, accountId, id)]);
    if (!row) throw notFound('automation');
    return {
      automation: renderAutomation(row),
      draft: state.draft,
      published: state.published,
      problems: state.problems,
      project: state.project,
      sms_micros_per_segment: deps.config.delivery.smsMicrosPerSegment,
      webhook: { configured: state.row.webhook_configured },
    };
  };

  hub.post('/automations', hubRoute('member', {
    operationId: 'hubCreateAutomation',
    summary: 'Create an automation from a definition',
    description: 'In a project of the account; published or paused publishes version 1 (refused with automation_not_publishable while it has problems).',
    body: CreateBody,
    response: { 201: AutomationEditor },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const id = await createAutomation(deps.db, auth.accountId, request.body, actorOf(auth));
    reply.code(201);
    return editor(auth.accountId, id);
  });

  hub.get('/automations/:id/editor', hubRoute('member', {
    operationId: 'hubGetAutomationEditor',
    summary: 'The automation as the builder edits it',
    params: IdParams,
    response: { 200: AutomationEditor },
  }), async (request) => editor(hubAuthOf(request).accountId, request.params.id));

  hub.put('/automations/:id/draft', hubRoute('member', {
    operationId: 'hubSaveAutomationDraft',
    summary: 'Save the draft',
    description: 'Structural rules only (a draft may be incomplete: what blocks publishing is listed in problems). Runs keep their version. Not audited (publishing is).',
    params: IdParams,
    body: DraftBody,
    response: { 200: AutomationEditor },
  }), async (request) => {
    const accountId = hubAuthOf(request).accountId;
    await editDraft(deps.db, { automationId: request.params.id, accountId }, request.body);
    return editor(accountId, request.params.id);
  });

  hub.get('/automations/:id/diff', hubRoute('member', {
    operationId: 'hubGetAutomationDiff',
    summary: 'The draft against the published version',
    params: IdParams,
    response: { 200: AutomationDiff },
  }), async (request) => {
    const state = await editorState(deps.db, hubAuthOf(request).accountId, request.params.id);
    const side = (d: AutomationDefinition) => ({ ...d, steps: d.steps as unknown as DiffStep[] });
    const settings = ({ name, trigger, run_only_if, reenroll }: AutomationDefinition) => ({ name, trigger, run_only_if, reenroll });
    return {
      ...diffAutomation(state.published ? { ...side(state.published), version: state.publishedVersion } : null, side(state.draft)),
      settings: { published: state.published ? settings(state.published) : null, draft: settings(state.draft) },
    };
  });

  hub.get('/automations/:id/versions', hubRoute('member', {
    operationId: 'hubListAutomationVersions',
    summary: 'Its published versions, newest first',
    params: IdParams,
    response: { 200: VersionList },
  }), async (request) => {
    const rows = await versionsOf(deps.db, hubAuthOf(request).accountId, request.params.id);
    return { data: rows.map((v) => ({ version: v.version, published_at: iso(v.published_at), published_by: v.published_by })) };
  });

  hub.get('/automations/:id/versions/:version', hubRoute('member', {
    operationId: 'hubGetAutomationVersion',
    summary: 'One published version, read-only',
    params: VersionParams,
    response: { 200: VersionView },
  }), async (request) => {
    const { id, version } = request.params;
    // An unknown version of a known automation is its own 404 ("automation version"), as the runs' versions are.
    const v = await versionView(deps.db, hubAuthOf(request).accountId, id, version);
    return { ...v, published_at: iso(v.published_at) };
  });

  hub.post('/automations/:id/copy', hubRoute('member', {
    operationId: 'hubCopyAutomation',
    summary: 'Copy as a new draft ("Copy of <name>", no webhook)',
    params: IdParams,
    response: { 201: AutomationEditor },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const id = await copyAutomation(deps.db, auth.accountId, request.params.id, actorOf(auth));
    reply.code(201);
    return editor(auth.accountId, id);
  });

  hub.delete('/automations/:id', hubRoute('admin', {
    operationId: 'hubDeleteAutomation',
    summary: 'Delete (owners and admins)',
    description: 'Soft delete: gone from /v1 and the hub, takes no enrollment; its running and waiting runs end stopped. Its finished runs stay readable.',
    params: IdParams,
    response: { 200: Deleted },
  }), async (request) => {
    const auth = hubAuthOf(request);
    await deleteAutomation(deps.db, auth.accountId, request.params.id, actorOf(auth));
    return { id: request.params.id, deleted: true as const };
  });
}
