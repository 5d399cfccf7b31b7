// Account → Settings: the account's name and each project's settings (SMS consent required,
// automations per contact), which owners and admins change; tier, limits, subscription and state,
// which only the operator changes (`account set`) and which are read-only here: a PATCH naming one
// is 422 unknown_field. Members may read the settings (they build automations under them), and
// the providers the server runs with (the development stand-ins the hub's banner names).
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { providerReport } from '../../delivery/transports/index.js';
import { iso } from '../../lib/time.js';
import { limitsFor } from '../../limits/tiers.js';
import { changeProjectSettings, readSettings, renameAccountBy, type AccountSettings, type ProjectWithSettings } from '../../services/settings/service.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { AccountBody, IdParams, ProjectBody, ProjectSettings, Providers, Settings } from './schemas.js';

function renderProject(p: ProjectWithSettings): ProjectSettings {
  return { id: p.id, name: p.name, ...p.settings };
}

function render(s: AccountSettings): Settings {
  const a = s.account;
  const limits = limitsFor(a.tier, a);
  return {
    account: {
      id: a.id, name: a.name, tier: a.tier, state: a.state, subscription: a.subscription, credit_micros: a.credit_micros, api_open: a.api_open,
      limits: { requests_per_minute: limits.requestsPerMinute, run_starts_per_minute: limits.runStartsPerMinute, concurrent_runs: limits.concurrentRuns },
      created_at: iso(a.created_at),
    },
    projects: s.projects.map(renderProject),
  };
}

export function registerHubSettingsRoutes(hub: App, deps: AppDeps): void {
  hub.get('/settings', hubRoute('member', {
    operationId: 'hubGetSettings',
    summary: "The account's settings",
    response: { 200: Settings },
  }), async (request) => render(await readSettings(deps.db, hubAuthOf(request).accountId)));

  hub.get('/settings/providers', hubRoute('member', {
    operationId: 'hubGetProviders',
    summary: 'The AI, email and SMS providers this server runs with, development stand-ins marked',
    response: { 200: Providers },
  }), async () => providerReport(deps.config));

  hub.patch('/settings', hubRoute('admin', {
    operationId: 'hubUpdateSettings', summary: "Change the account's name (tier, limits, subscription and state are the operator's)",
    body: AccountBody, response: { 200: Settings },
  }), async (request) => {
    const auth = hubAuthOf(request);
    if (request.body.name !== undefined) await renameAccountBy(deps.db, auth.accountId, request.body.name, actorOf(auth));
    return render(await readSettings(deps.db, auth.accountId));
  });

  hub.patch('/settings/projects/:id', hubRoute('admin', {
    operationId: 'hubUpdateProjectSettings', summary: "Change a project's settings",
    params: IdParams, body: ProjectBody, response: { 200: ProjectSettings },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return renderProject(await changeProjectSettings(deps.db, auth.accountId, request.params.id, request.body, actorOf(auth)));
  });
}
