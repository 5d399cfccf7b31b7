// First-run set-up: GET /setup says whether it is still open (and whether this caller must give
// the set-up token); POST /setup creates the first account and its owner and signs the owner in.
// A caller needs the token unless the request is plainly from this machine's own browser: a
// loopback peer, no forwarding header (behind a proxy on the same host every request would look
// loopback, so any sign of a proxy counts as "from elsewhere"), and a Host that names this machine
// (localhost, 127/8, [::1]). The Host test stops DNS rebinding: a page on a name the attacker
// controls, rebound to 127.0.0.1, reaches us from loopback but names itself as Host.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { AccountInputError, checkPassword } from '../../services/accounts/create.js';
import { runFirstSetup, setupDone, setupNeeded, setupTokenValid } from '../../services/setup/service.js';
import { removeSetupTokenFile } from '../../services/setup/token-file.js';
import { hubRoute } from '../kit.js';
import { hostIsLoopback } from '../origins.js';
import { HubSession } from '../session/schemas.js';
import { startSession } from '../session/routes.js';
import { SetupBody, SetupState } from './schemas.js';

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto'];

/**
 * The TCP peer (never a forwarded address) is loopback, nothing says a proxy relayed the request,
 * and the Host header names this machine.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  if (FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined)) return false;
  const peer = (request.raw.socket?.remoteAddress ?? '').replace(/^::ffff:/i, '');
  return (peer === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(peer)) && hostIsLoopback(request);
}

/** The service names the owner's fields as `account create` does; the form names them as this body does. */
const PARAM_OF: Record<string, string> = { name: 'account_name', owner_email: 'email', password: 'password' };

export function registerHubSetupRoutes(hub: App, deps: AppDeps): void {
  hub.get('/setup', hubRoute('public', {
    operationId: 'hubGetSetup',
    summary: 'Whether first-run set-up is open',
    response: { 200: SetupState },
  }), async (request) => ({ needed: await setupNeeded(deps.db), token_required: !fromThisMachine(request) }));

  hub.post('/setup', hubRoute('public', {
    operationId: 'hubSetUp',
    summary: 'Create the first account and its owner, and sign in',
    body: SetupBody,
    response: { 200: HubSession },
  }, [409]), async (request, reply) => {
    const b = request.body;
    if (!(await setupNeeded(deps.db))) throw setupDone();
    if (!fromThisMachine(request) && !(b.setup_token && (await setupTokenValid(deps.db, b.setup_token.trim())))) {
      throw new ApiError('setup_token_required', 'Set-up from anywhere but a browser on the server\'s own machine (opened as localhost or 127.0.0.1) needs the set-up token `switchboard serve` wrote at start to the file setup-token in its data directory (and printed on its terminal).', { param: 'setup_token' });
    }
    const email = b.email.trim().toLowerCase();
    let ids: { accountId: string; ownerId: string };
    try {
      checkPassword(b.password);
      ids = await runFirstSetup(deps.db, { accountName: b.account_name, ownerName: b.name, email, password: b.password, creditMicros: deps.config.startingCreditMicros, actorLabel: `first-run set-up by ${email}` });
    } catch (err) {
      if (err instanceof AccountInputError) throw new ApiError('invalid_field', err.message, { param: PARAM_OF[err.field] ?? err.field });
      throw err;
    }
    // The token is void now; its file goes too (a server that cannot remove it does so at its next start).
    try {
      removeSetupTokenFile(deps.config.dataDir);
    } catch (err) {
      request.log.warn({ err }, 'could not remove the set-up token file');
    }
    return startSession(request, reply, deps, email, [{ user_id: ids.ownerId, account_id: ids.accountId }]);
  });
}
