// The hub's request hook, run on every /hub/api route before any body is read: the session from
// its cookie, then what the route declares (hub/kit.ts): a session, a picked account, an owner or
// admin; then, on every state change, the hub's own Origin and the session's CSRF token; then the
// account's state: a closed account is gone from the session (no session at all when it was the
// last), a suspended or lapsed one is read-only, with /v1's own 403s in a person's words. Each
// refusal is the catalogue's error.
import type { FastifyRequest } from 'fastify';
import { accountRefusal } from '../accounts/activity.js';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import type { AccountState, Subscription } from '../domain/account.js';
import { ApiError } from '../domain/errors.js';
import { CSRF_HEADER, mayAdminister, SESSION_ABSOLUTE_MS, SESSION_COOKIE, SESSION_IDLE_MS } from '../domain/hub.js';
import type { App } from '../http/route-kit.js';
import type { HubSessionInfo } from './kit.js';
import { HubOrigins, normalOrigin } from './origins.js';
import { deleteSession, touchSession } from './sessions/store.js';
import { hashToken, isWellFormedToken, sameSecret } from './sessions/token.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state change must come from a page of this hub: an Origin present (browsers always send it on
 * POST, PUT, PATCH and DELETE) and one of the hub's own (hub/origins.ts), never merely the Host
 * the request names. A foreign one is refused in words that say what the operator can set, so a
 * hub reached by a name it was not told about is not locked silently.
 */
export function checkOrigin(request: FastifyRequest, origins: HubOrigins): void {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === '') {
    throw new ApiError('csrf_failed', 'This request did not come from a page of this hub (it has no Origin); reload the page and try again.');
  }
  if (origins.allowsOrigin(request, origin)) return;
  const seen = normalOrigin(origin);
  throw new ApiError(
    'csrf_failed',
    seen
      ? `This hub does not know ${seen} as one of its own addresses, so it refuses changes from pages there. ` +
          `If people reach the hub at that address, the operator should set SWITCHBOARD_PUBLIC_URL to it, or add it to SWITCHBOARD_HUB_ORIGINS, and restart.`
      : 'This request did not come from a page of this hub (its Origin is not one of its addresses).',
  );
}

/**
 * Why a change is refused in an account the operator has made read-only: /v1's codes, in words a
 * person reads with what to do next (the operator decides, so the operator is who to ask).
 */
export function readOnlyRefusal(state: AccountState, subscription: Subscription): ApiError | null {
  switch (accountRefusal(state, subscription, true)) {
    case 'account_suspended':
      return new ApiError('account_suspended', 'This account is suspended, so it is read-only: nothing can be changed or started. Ask the operator of this Switchboard to lift the suspension.');
    case 'subscription_inactive':
      return new ApiError(
        'subscription_inactive',
        `This account's plan has ${subscription === 'ended' ? 'ended' : 'lapsed'}, so it is read-only: nothing can be changed or started. Ask the operator of this Switchboard to renew it.`,
      );
    case 'account_closed':
      return new ApiError('account_closed', 'This account has been closed. Choose another of your accounts.');
    case null:
      return null;
  }
}

export function installHubAuth(hub: App, deps: { db: Db; config: Config }): void {
  const origins = new HubOrigins(deps.config);
  hub.addHook('onRequest', async (request: FastifyRequest) => {
    request.hubAuth = null;
    request.hubSession = null;
    if (request.is404) return; // the not-found handler answers
    const meta = request.routeOptions.config?.hub;
    if (!meta) throw new Error(`hub route ${request.routeOptions.url} declares no access`);

    // A cookie sent to a host name that is not ours is no session: a rebound name reaching this
    // machine must not act with (or learn of) a session a browser keeps for it.
    const token = origins.allowsHost(request) ? request.cookies?.[SESSION_COOKIE] : undefined;
    let row = isWellFormedToken(token) ? await touchSession(deps.db, hashToken(token), SESSION_IDLE_MS, SESSION_ABSOLUTE_MS) : null;
    if (row && row.open_accounts === 0) {
      // Every account this sign-in may act in is closed: the session ends here and now (the
      // lookup reads the accounts on every request, so a close by any process or by hand in the
      // database acts at once; nothing about sessions is cached).
      await deleteSession(deps.db, Buffer.from(row.token_hash));
      row = null;
    }
    // The picked account closed while others stay open: no account until another is picked.
    const pickedOpen = row !== null && row.role !== null && row.account_state !== 'closed';
    if (row) {
      const info: HubSessionInfo = {
        // PGlite hands bytea back as a Uint8Array, whose toString ignores 'hex'.
        sessionId: Buffer.from(row.token_hash).toString('hex'),
        email: row.email,
        userIds: row.user_ids,
        csrfToken: row.csrf_token,
        accountId: row.role ? row.account_id : null,
        userId: row.role ? row.user_id : null,
      };
      request.hubSession = info;
    }
    const change = !SAFE_METHODS.has(request.method);
    if (meta.access === 'public') {
      if (change) checkOrigin(request, origins);
      return;
    }
    if (!row) throw new ApiError('not_signed_in', 'Sign in first: there is no session, or it has expired or ended.');
    if (change) {
      checkOrigin(request, origins);
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !sameSecret(sent, row.csrf_token)) {
        throw new ApiError('csrf_failed', `This request lacks the session's CSRF token (${CSRF_HEADER}); reload the page.`);
      }
    }
    if (meta.access === 'signed-in') return;
    if (!row.role || !row.account_id || !row.user_id) {
      throw new ApiError('account_not_chosen', 'Pick an account first.');
    }
    if (!pickedOpen) {
      throw new ApiError('account_closed', 'This account has been closed, so nothing in it can be seen or changed any more. Choose another of your accounts.');
    }
    if (meta.access === 'admin' && !mayAdminister(row.role)) {
      throw new ApiError('role_forbidden', 'Only an owner or admin of the account may do this.');
    }
    // Suspended, or a plan lapsed or ended: read-only. Reads go on; every change is refused.
    if (change && row.account_state && row.subscription) {
      const refused = readOnlyRefusal(row.account_state, row.subscription);
      if (refused) throw refused;
    }
    request.hubAuth = {
      sessionId: request.hubSession!.sessionId,
      email: row.email,
      accountId: row.account_id,
      userId: row.user_id,
      role: row.role,
      label: row.user_name ? `${row.user_name} <${row.email}>` : row.email,
    };
  });
}
