// Account → Users: list, invite (a one-time set-password link shown once, emailed when an email
// transport is configured), change a role, remove. Owners and admins only; the rules (one email per
// account, the last owner stays, keys in use block a removal) are the services' (services/users),
// the same the operator CLI's `users` command calls.
import { Type, type Static } from '@sinclair/typebox';
import { USER_ROLES } from '../../domain/account.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { DateTime, Line, StringEnum, Uuid } from '../../http/schemas.js';
import { iso } from '../../lib/time.js';
import { inviteUser, listUsers, removeUser, setUserRole, type UserRow } from '../../services/users/service.js';
import { actorOf, hubAccess, hubAuthOf, hubResponses, HUB_TAG } from '../kit.js';

export const HubUser = Type.Object(
  {
    id: Uuid,
    email: Type.String(),
    name: Type.String({ description: 'May be empty.' }),
    role: StringEnum(USER_ROLES),
    has_password: Type.Boolean({ description: 'False until the user has used their set-password link.' }),
    created_at: DateTime,
  },
  { title: 'HubUser' },
);
const UserList = Type.Object({ data: Type.Array(HubUser, { description: 'Oldest first.' }) }, { title: 'HubUserList' });
const Invitation = Type.Object(
  {
    user: HubUser,
    set_password_url: Type.String({ description: 'One-time link (7 days) where the user sets a password; shown only in this response.' }),
    emailed: Type.Boolean({ description: 'True when the link was also queued as an email to the user.' }),
  },
  { title: 'HubInvitation' },
);
const InviteBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    name: Type.Optional(Line({ maxLength: 200 })),
    role: StringEnum(USER_ROLES),
  },
  { additionalProperties: false },
);
const RoleBody = Type.Object({ role: StringEnum(USER_ROLES) }, { additionalProperties: false });
const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

export function renderUser(u: UserRow): Static<typeof HubUser> {
  return { id: u.id, email: u.email, name: u.name, role: u.role, has_password: u.has_password, created_at: iso(u.created_at) };
}

export function registerHubUserRoutes(hub: App, deps: AppDeps): void {
  hub.get(
    '/users',
    {
      schema: { tags: [HUB_TAG], operationId: 'hubListUsers', summary: "The account's users", response: hubResponses('admin', { 200: UserList }) },
      config: hubAccess('admin'),
    },
    async (request) => ({ data: (await listUsers(deps.db, hubAuthOf(request).accountId)).map(renderUser) }),
  );

  hub.post(
    '/users',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubInviteUser', summary: 'Invite a user (returns their one-time set-password link)',
        body: InviteBody, response: hubResponses('admin', { 201: Invitation }),
      },
      config: hubAccess('admin'),
    },
    async (request, reply) => {
      const auth = hubAuthOf(request);
      const r = await inviteUser(deps.db, auth.accountId, request.body, actorOf(auth), deps.config);
      return reply.code(201).send({ user: renderUser(r.user), set_password_url: r.link, emailed: r.emailed });
    },
  );

  hub.patch(
    '/users/:id',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubSetUserRole', summary: "Change a user's role",
        params: IdParams, body: RoleBody, response: hubResponses('admin', { 200: HubUser }),
      },
      config: hubAccess('admin'),
    },
    async (request) => {
      const auth = hubAuthOf(request);
      return renderUser(await setUserRole(deps.db, auth.accountId, request.params.id, request.body.role, actorOf(auth)));
    },
  );

  hub.delete(
    '/users/:id',
    {
      schema: {
        tags: [HUB_TAG], operationId: 'hubRemoveUser', summary: 'Remove a user (their sessions end)',
        params: IdParams, response: hubResponses('admin', { 204: Type.Null() }),
      },
      config: hubAccess('admin'),
    },
    async (request, reply) => {
      const auth = hubAuthOf(request);
      await removeUser(deps.db, auth.accountId, request.params.id, actorOf(auth));
      return reply.code(204).send();
    },
  );
}
