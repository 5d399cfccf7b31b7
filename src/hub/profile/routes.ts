// "Your profile" (any role, in the picked account): read it, change one's name, password (other
// sessions signed out, this one kept) and email (confirmed by a link to the new address, used
// through the public POST /confirm-email). A password or email change re-checks the current
// password, counted by the sign-in throttle like a sign-in.
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { isoOrNull, iso } from '../../lib/time.js';
import { verifyPassword } from '../../lib/password.js';
import { sendsEmail } from '../../services/users/mail.js';
import { changeOwnPassword, checkNewPassword, confirmEmailChange, profileOf, refuseWithoutEmail, renameSelf, requestEmailChange } from '../../services/users/profile.js';
import { passwordHashOf } from '../../services/users/store.js';
import { actorOf, hubAuthOf, hubRoute, type HubAuth } from '../kit.js';
import { admitPasswordAttempt } from '../session/routes.js';
import { ConfirmEmailBody, EmailBody, EmailConfirmed, NameBody, PasswordBody, PasswordChanged, PendingEmail, Profile } from './schemas.js';

/** A hash no password matches, so a user without one is checked as long as one with. */
const NO_PASSWORD = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** 403 wrong_password unless `password` is the user's; a wrong one counts as a failed sign-in. */
async function checkCurrentPassword(request: FastifyRequest, deps: AppDeps, auth: HubAuth, password: string): Promise<void> {
  const admission = await admitPasswordAttempt(request, deps, auth.email);
  const hash = await passwordHashOf(deps.db, auth.accountId, auth.userId);
  if (!(await verifyPassword(password, hash ?? NO_PASSWORD))) {
    throw new ApiError('wrong_password', 'Your current password is not right. Type the password you signed in with.', { param: 'current_password' });
  }
  await admission.succeeded();
}

export function registerHubProfileRoutes(hub: App, deps: AppDeps): void {
  hub.get('/profile', hubRoute('member', {
    operationId: 'hubGetProfile',
    summary: 'Your own user in this account',
    response: { 200: Profile },
  }), async (request) => {
    const auth = hubAuthOf(request);
    const p = await profileOf(deps.db, auth.accountId, auth.userId);
    return {
      id: p.user.id, email: p.user.email, name: p.user.name, role: p.user.role, account_name: p.account_name,
      pending_email: p.pending?.new_email ?? null, pending_email_expires_at: isoOrNull(p.pending?.expires_at),
      sends_email: sendsEmail(deps.config),
    };
  });

  hub.patch('/profile', hubRoute('member', {
    operationId: 'hubRenameSelf',
    summary: 'Change your own name',
    body: NameBody,
    response: { 204: Type.Null() },
  }), async (request, reply) => {
    const auth = hubAuthOf(request);
    await renameSelf(deps.db, auth.accountId, auth.userId, request.body.name, actorOf(auth));
    return reply.code(204).send();
  });

  hub.put('/profile/password', hubRoute('member', {
    operationId: 'hubChangeOwnPassword',
    summary: 'Change your own password (your other sessions are signed out)',
    body: PasswordBody,
    response: { 200: PasswordChanged },
  }, [429]), async (request) => {
    const auth = hubAuthOf(request);
    // The new password's rule first: a right current password with a short new one is no failure.
    checkNewPassword(request.body.new_password, 'new_password');
    await checkCurrentPassword(request, deps, auth, request.body.current_password);
    const ended = await changeOwnPassword(deps.db, auth.accountId, auth.userId, request.body.new_password, Buffer.from(auth.sessionId, 'hex'), actorOf(auth));
    return { other_sessions_ended: ended };
  });

  hub.post('/profile/email', hubRoute('member', {
    operationId: 'hubRequestEmailChange',
    summary: 'Change your own email: a confirmation link goes to the new address',
    body: EmailBody,
    response: { 202: PendingEmail },
  }, [429]), async (request, reply) => {
    const auth = hubAuthOf(request);
    refuseWithoutEmail(deps.config);
    await checkCurrentPassword(request, deps, auth, request.body.current_password);
    const p = await requestEmailChange(deps.db, auth.accountId, auth.userId, request.body.email, actorOf(auth), deps.config);
    return reply.code(202).send({ pending_email: p.new_email, expires_at: iso(p.expires_at) });
  });

  hub.post('/confirm-email', hubRoute('public', {
    operationId: 'hubConfirmEmail',
    summary: 'Use a link that confirms a new email',
    body: ConfirmEmailBody,
    response: { 200: EmailConfirmed },
  }, [409, 410]), async (request) => confirmEmailChange(deps.db, request.body.token, deps.config));
}
