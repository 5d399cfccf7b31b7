// The hub's request hook, run on every /hub/api route before any body is read: the session from
// its cookie, then what the route declares (hub/kit.ts): a session, a picked account, an owner or
// admin; then, on every state change, the same-origin Origin and the session's CSRF token; then
// the account's state for writes, with /v1's own 403s. Each refusal is the catalogue's error.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/db.js';
import { ApiError } from '../domain/errors.js';
import { CSRF_HEADER, mayAdminister, SESSION_ABSOLUTE_MS, SESSION_COOKIE, SESSION_IDLE_MS } from '../domain/hub.js';
import { accountStateError } from '../http/pipeline.js';
import type { App } from '../http/route-kit.js';
import type { HubSessionInfo } from './kit.js';
import { touchSession } from './sessions/store.js';
import { hashToken, isWellFormedToken, sameSecret } from './sessions/token.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origins a state-changing request may come from: this server as the browser reached it, and the public URL. */
function allowedOrigins(request: FastifyRequest, config: Config): string[] {
  const own = `${request.protocol}://${request.host}`.toLowerCase();
  const out = [own];
  if (config.delivery.publicUrlSet) out.push(new URL(config.delivery.publicUrl).origin.toLowerCase());
  return out;
}

/** A state change must come from a page of this server: Origin present and ours (browsers always send it on POST/PATCH/DELETE). */
export function checkOrigin(request: FastifyRequest, config: Config): void {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || !allowedOrigins(request, config).includes(origin.toLowerCase())) {
    throw new ApiError('csrf_failed', 'This request did not come from a page of this hub (its Origin is missing or foreign).');
  }
}

export function installHubAuth(hub: App, deps: { db: Db; config: Config }): void {
  hub.addHook('onRequest', async (request: FastifyRequest) => {
    request.hubAuth = null;
    request.hubSession = null;
    if (request.is404) return; // the not-found handler answers
    const meta = request.routeOptions.config?.hub;
    if (!meta) throw new Error(`hub route ${request.routeOptions.url} declares no access`);

    const token = request.cookies?.[SESSION_COOKIE];
    const row = isWellFormedToken(token) ? await touchSession(deps.db, hashToken(token), SESSION_IDLE_MS, SESSION_ABSOLUTE_MS) : null;
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
      if (change) checkOrigin(request, deps.config);
      return;
    }
    if (!row) throw new ApiError('not_signed_in', 'Sign in first: there is no session, or it has expired or ended.');
    if (change) {
      checkOrigin(request, deps.config);
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !sameSecret(sent, row.csrf_token)) {
        throw new ApiError('csrf_failed', `This request lacks the session's CSRF token (${CSRF_HEADER}); reload the page.`);
      }
    }
    if (meta.access === 'signed-in') return;
    if (!row.role || !row.account_id || !row.user_id) {
      throw new ApiError('account_not_chosen', 'Pick an account first.');
    }
    if (meta.access === 'admin' && !mayAdminister(row.role)) {
      throw new ApiError('role_forbidden', 'Only an owner or admin of the account may do this.');
    }
    if (change && row.account_state && row.subscription) {
      const refused = accountStateError(row.account_state, row.subscription, true);
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
