// One-time set-password links (an invited user, a new owner from `account create`): GET says whom
// a live link is for, POST sets the password, uses the link up, ends the user's other sessions and
// signs them in. Both are public (the link is the credential); the token is redacted from logs.
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { AccountInputError } from '../../services/accounts/create.js';
import { setPasswordLinkTarget, setPasswordWithLink } from '../../services/users/links.js';
import { hubRoute } from '../kit.js';
import { HubSession } from '../session/schemas.js';
import { startSession } from '../session/routes.js';
import { LinkTarget, SetBody, TokenParams } from './schemas.js';

export function registerHubSetPasswordRoutes(hub: App, deps: AppDeps): void {
  hub.get('/set-password/:token', hubRoute('public', {
    operationId: 'hubGetSetPasswordLink',
    summary: 'Whom a one-time set-password link is for',
    params: TokenParams,
    response: { 200: LinkTarget },
  }, [410]), async (request) => {
    const t = await setPasswordLinkTarget(deps.db, request.params.token);
    return { account_id: t.account_id, account_name: t.account_name, email: t.email, name: t.name, expires_at: t.expires_at.toISOString() };
  });

  hub.post('/set-password', hubRoute('public', {
    operationId: 'hubSetPassword',
    summary: 'Set a password through a one-time link, and sign in',
    body: SetBody,
    response: { 200: HubSession },
  }, [410]), async (request, reply) => {
    let t;
    try {
      t = await setPasswordWithLink(deps.db, request.body.token, request.body.password);
    } catch (err) {
      if (err instanceof AccountInputError) throw new ApiError('invalid_field', err.message, { param: 'password' });
      throw err;
    }
    return startSession(request, reply, deps, t.email.toLowerCase(), [{ user_id: t.user_id, account_id: t.account_id }]);
  });
}
