// Account → Users: list, invite (a one-time set-password link shown once, emailed when an email
// transport is configured), send a new set-password link (the same way), change a role or an
// email, remove. Owners and admins only; the rules (one email per
// account, the last owner stays, keys in use block a removal) are the services' (services/users),
// the same the operator CLI's `users` command calls.
import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { iso } from '../../lib/time.js';
import { setUserEmail } from '../../services/users/profile.js';
import { sendSetPasswordLink } from '../../services/users/reset.js';
import { inviteUser, listUsers, removeUser, setUserRole, type UserRow } from '../../services/users/service.js';
import { actorOf, hubAuthOf, hubRoute } from '../kit.js';
import { EmailBody, HubUser, IdParams, Invitation, InviteBody, RoleBody, UserList } from './schemas.js';

export function renderUser(u: UserRow): HubUser {
  return { id: u.id, email: u.email, name: u.name, role: u.role, has_password: u.has_password, created_at: iso(u.created_at) };
}

/** A one-time set-password link as the hub answers it (an invitation or a new link): shown once. */
const renderLink = (r: { user: UserRow; link: string; emailed: boolean }): Invitation => ({ user: renderUser(r.user), set_password_url: r.link, emailed: r.emailed });

export function registerHubUserRoutes(hub: App, deps: AppDeps): void {
  hub.get('/users', hubRoute('admin', {
    operationId: 'hubListUsers',
    summary: "The account's users",
    response: { 200: UserList },
  }), async (request) => ({ data: (await listUsers(deps.db, hubAuthOf(request).accountId)).map(renderUser) }));

  hub.post('/users', hubRoute('admin', {
    operationId: 'hubInviteUser', summary: 'Invite a user (returns their one-time set-password link)',
    body: InviteBody, response: { 201: Invitation },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    return reply.code(201).send(renderLink(await inviteUser(deps.db, auth.accountId, request.body, actorOf(auth), deps.config)));
  });

  hub.patch('/users/:id', hubRoute('admin', {
    operationId: 'hubSetUserRole', summary: "Change a user's role",
    params: IdParams, body: RoleBody, response: { 200: HubUser },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return renderUser(await setUserRole(deps.db, auth.accountId, request.params.id, request.body.role, actorOf(auth)));
  });

  // Owners may do the next two to anyone, admins to members and admins (domain/hub.ts mayManageSignIn).
  hub.post('/users/:id/set-password-link', hubRoute('admin', {
    operationId: 'hubSendSetPasswordLink', summary: "Send a user a new set-password link (their earlier unused ones stop working)",
    params: IdParams, response: { 201: Invitation },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    const by = { actor: actorOf(auth), role: auth.role };
    return reply.code(201).send(renderLink(await sendSetPasswordLink(deps.db, auth.accountId, request.params.id, by, deps.config)));
  });

  hub.put('/users/:id/email', hubRoute('admin', {
    operationId: 'hubSetUserEmail', summary: "Change a user's email (at once, no confirmation)",
    params: IdParams, body: EmailBody, response: { 200: HubUser },
  }), async (request) => {
    const auth = hubAuthOf(request);
    return renderUser(await setUserEmail(deps.db, auth.accountId, request.params.id, request.body.email, { actor: actorOf(auth), role: auth.role }));
  });

  hub.delete('/users/:id', hubRoute('admin', {
    operationId: 'hubRemoveUser', summary: 'Remove a user (their sessions end)',
    params: IdParams, response: { 204: Type.Null() },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    await removeUser(deps.db, auth.accountId, request.params.id, actorOf(auth));
    return reply.code(204).send();
  });
}
