// Account → API keys: list, create (the value shown once), rename and re-cap, revoke, roll with a
// grace, and the scopes with what each lets a key do. Owners and admins only: a member gets
// 403 role_forbidden and never sees a key. Every rule and audit entry is the keys services'
// (src/services/keys/manage.ts), which the operator CLI calls too.
import { MAX_ACTIVE_KEYS } from '../../domain/key.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../lib/scopes.js';
import { createAccountKey, listAccountKeys, revokeAccountKey, rollAccountKey, updateAccountKey } from '../../services/keys/manage.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { CreateBody, Created, HubKey, IdParams, KeyList, RollBody, Rolled, ScopeList, UpdateBody } from './schemas.js';

export function registerHubKeyRoutes(hub: App, deps: AppDeps): void {
  hub.get('/keys', hubRoute('admin', {
    operationId: 'hubListKeys', summary: "The account's API keys",
    description: 'Name, prefix, scopes, creator, dates, cap and this month\'s spend, state and successor of every key.',
    response: { 200: KeyList },
  }), async (request) => ({ data: await listAccountKeys(deps.db, hubAuthOf(request).accountId), max_active: MAX_ACTIVE_KEYS }));

  hub.get('/keys/scopes', hubRoute('admin', {
    operationId: 'hubListKeyScopes', summary: 'The scopes a key may carry',
    description: 'Each scope with what it lets a key do, in the API reference\'s words.',
    response: { 200: ScopeList },
  }), async () => ({ data: SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })) }));

  hub.post('/keys', hubRoute('admin', {
    operationId: 'hubCreateKey', summary: 'Create an API key',
    description: `The value is in this answer only. At most ${MAX_ACTIVE_KEYS} active keys: 409 key_limit_reached beyond.`,
    body: CreateBody,
    response: { 201: Created },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const b = request.body;
    const created = await createAccountKey(
      deps.db,
      auth.accountId,
      {
        createdBy: auth.userId,
        name: b.name,
        scopes: b.scopes,
        expiresAt: b.expires_at ? new Date(b.expires_at) : null,
        monthlySpendCapMicros: b.monthly_spend_cap_micros ?? null,
      },
      actorOf(auth),
    );
    return reply.code(201).send({ key: created.key, value: created.value });
  });

  hub.patch('/keys/:id', hubRoute('admin', {
    operationId: 'hubUpdateKey', summary: "Rename a key or change its cap",
    params: IdParams,
    body: UpdateBody,
    response: { 200: HubKey },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const { name, monthly_spend_cap_micros } = request.body;
    return updateAccountKey(deps.db, auth.accountId, request.params.id, { name, monthlySpendCapMicros: monthly_spend_cap_micros }, actorOf(auth));
  });

  hub.post('/keys/:id/revoke', hubRoute('admin', {
    operationId: 'hubRevokeKey', summary: 'Revoke a key',
    description: 'It fails from its next request. Revoking again changes nothing.',
    params: IdParams,
    response: { 200: HubKey },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return (await revokeAccountKey(deps.db, auth.accountId, request.params.id, actorOf(auth))).key;
  });

  hub.post('/keys/:id/roll', hubRoute('admin', {
    operationId: 'hubRollKey', summary: 'Roll a key',
    description:
      'A new key with the same name, scopes, cap and expiry (its value in this answer only); the old key works for the grace, ' +
      'then answers 401 api_key_expired. Only an active key rolls: 409 key_not_active otherwise.',
    params: IdParams,
    body: RollBody,
    response: { 200: Rolled },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return rollAccountKey(deps.db, auth.accountId, request.params.id, request.body.grace, actorOf(auth));
  });
}
