// Account → API keys: list, create (the value shown once), rename and re-cap, revoke, roll with a
// grace, and the scopes with what each lets a key do. Owners and admins only: a member gets
// 403 role_forbidden and never sees a key. Every rule and audit entry is the keys services'
// (src/services/keys/manage.ts), which the operator CLI calls too.
import { Type } from '@sinclair/typebox';
import { ROLL_GRACES } from '../../domain/hub.js';
import { KEY_STATES, MAX_ACTIVE_KEYS, MAX_KEY_NAME } from '../../domain/key.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { DateTime, Line, Nullable, StringEnum, Uuid } from '../../http/schemas.js';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../lib/scopes.js';
import { createAccountKey, listAccountKeys, revokeAccountKey, rollAccountKey, updateAccountKey } from '../../services/keys/manage.js';
import { actorOf, hubAccess, hubAuthOf, hubResponses, HUB_TAG } from '../kit.js';

const Cap = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Monthly spend cap in micros (1,000,000 = US$1).' });
const Name = Line({ minLength: 1, maxLength: MAX_KEY_NAME, description: 'What the key is for; one line.' });

export const HubKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String({ description: "The key's visible prefix (never its value, which is shown only once)." }),
    scopes: Type.Array(Type.String()),
    state: StringEnum(KEY_STATES, { description: 'rolled: replaced by a new key and still valid until expires_at (its grace).' }),
    created_by: Type.Object({ id: Uuid, name: Type.String(), email: Type.String() }),
    created_at: DateTime,
    last_used_at: Nullable(DateTime),
    expires_at: Nullable(DateTime),
    monthly_spend_cap_micros: Nullable(Cap),
    spent_this_month_micros: Type.Integer({ description: 'Spent through the key in the current UTC month, in micros.' }),
    revoked_at: Nullable(DateTime),
    replaced_by: Nullable(Uuid),
  },
  { title: 'HubKey' },
);

const KeyList = Type.Object(
  {
    data: Type.Array(HubKey, { description: 'Every key of the account, newest first (not paged: an account holds at most 10 active keys).' }),
    max_active: Type.Integer({ description: 'The most active keys an account may hold.' }),
  },
  { title: 'HubKeyList' },
);

const ScopeList = Type.Object(
  { data: Type.Array(Type.Object({ scope: StringEnum(SCOPES), description: Type.String() })) },
  { title: 'HubScopeList' },
);

const CreateBody = Type.Object(
  {
    name: Name,
    scopes: Type.Array(StringEnum(SCOPES), { maxItems: SCOPES.length, uniqueItems: true }),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'In the future; null or absent: never.' }))),
    monthly_spend_cap_micros: Type.Optional(Nullable(Cap)),
  },
  { additionalProperties: false },
);

const Created = Type.Object(
  { key: HubKey, value: Type.String({ description: 'The key itself: shown this once, never again.' }) },
  { title: 'HubKeyCreated' },
);

const UpdateBody = Type.Object(
  { name: Type.Optional(Name), monthly_spend_cap_micros: Type.Optional(Nullable(Cap)) },
  { additionalProperties: false, minProperties: 1, description: 'A cap may be raised, lowered or removed (null).' },
);

const RollBody = Type.Object(
  { grace: StringEnum(ROLL_GRACES, { description: 'How long the old key keeps working: none, 1h, 24h or 7d.' }) },
  { additionalProperties: false },
);

const Rolled = Type.Object(
  {
    old: HubKey,
    key: HubKey,
    value: Type.String({ description: "The new key's value: shown this once, never again." }),
  },
  { title: 'HubKeyRolled' },
);

const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export function registerHubKeyRoutes(hub: App, deps: AppDeps): void {
  hub.get(
    '/keys',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubListKeys', summary: "The account's API keys",
        description: 'Name, prefix, scopes, creator, dates, cap and this month\'s spend, state and successor of every key.',
        response: hubResponses('admin', { 200: KeyList }),
      },
      config: hubAccess('admin'),
    },
    async (request) => ({ data: await listAccountKeys(deps.db, hubAuthOf(request).accountId), max_active: MAX_ACTIVE_KEYS }),
  );

  hub.get(
    '/keys/scopes',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubListKeyScopes', summary: 'The scopes a key may carry',
        description: 'Each scope with what it lets a key do, in the API reference\'s words.',
        response: hubResponses('admin', { 200: ScopeList }),
      },
      config: hubAccess('admin'),
    },
    async () => ({ data: SCOPES.map((scope) => ({ scope, description: SCOPE_DESCRIPTIONS[scope] })) }),
  );

  hub.post(
    '/keys',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubCreateKey', summary: 'Create an API key',
        description: `The value is in this answer only. At most ${MAX_ACTIVE_KEYS} active keys: 409 key_limit_reached beyond.`,
        body: CreateBody,
        response: hubResponses('admin', { 201: Created }),
      },
      config: hubAccess('admin'),
    },
    async (request, reply) => {
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
    },
  );

  hub.patch(
    '/keys/:id',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubUpdateKey', summary: "Rename a key or change its cap",
        params: IdParams,
        body: UpdateBody,
        response: hubResponses('admin', { 200: HubKey }),
      },
      config: hubAccess('admin'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      const { name, monthly_spend_cap_micros } = request.body;
      return updateAccountKey(deps.db, auth.accountId, request.params.id, { name, monthlySpendCapMicros: monthly_spend_cap_micros }, actorOf(auth));
    },
  );

  hub.post(
    '/keys/:id/revoke',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubRevokeKey', summary: 'Revoke a key',
        description: 'It fails from its next request. Revoking again changes nothing.',
        params: IdParams,
        response: hubResponses('admin', { 200: HubKey }),
      },
      config: hubAccess('admin'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      return (await revokeAccountKey(deps.db, auth.accountId, request.params.id, actorOf(auth))).key;
    },
  );

  hub.post(
    '/keys/:id/roll',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubRollKey', summary: 'Roll a key',
        description:
          'A new key with the same name, scopes, cap and expiry (its value in this answer only); the old key works for the grace, ' +
          'then answers 401 api_key_expired. Only an active key rolls: 409 key_not_active otherwise.',
        params: IdParams,
        body: RollBody,
        response: hubResponses('admin', { 200: Rolled }),
      },
      config: hubAccess('admin'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      return rollAccountKey(deps.db, auth.accountId, request.params.id, request.body.grace, actorOf(auth));
    },
  );
}
