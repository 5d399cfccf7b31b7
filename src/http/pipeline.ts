// The request pipeline, in the spec's order, run in onRequest so it comes before any body is
// read: request id → early access → authentication → per-account early access → routing (the
// not-found handler answers 404/405) → account state → scope → per-key rate limit.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountRefusal } from '../accounts/activity.js';
import type { AccountState, Subscription } from '../domain/account.js';
import type { Config } from '../config.js';
import { limitsFor } from '../limits/tiers.js';
import type { WindowCounter } from '../limits/window-counter.js';
import type { Scope } from '../lib/scopes.js';
import type { Authenticator } from './auth.js';
import { ApiError } from '../domain/errors.js';
import { retirementHeaders, type Retirement } from './retirements.js';

/** What a /v1 route declares about itself; the pipeline enforces it. */
export interface RouteMeta {
  scope: Scope;
  /** Writes and run starts are refused while the subscription is inactive. */
  write: boolean;
}

export interface PipelineDeps {
  config: Config;
  authenticator: Authenticator;
  requests: WindowCounter;
  retirements: readonly Retirement[];
  /** 404 route_not_found or 405 method_not_allowed for a request no route matched. */
  routingError: (request: FastifyRequest) => ApiError;
}

/** The path as the router sees it: percent-decoded, without the query. */
function decodedPath(url: string): string {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Whether the request is for the API. Decided on the matched route when there is one, else on
 * the decoded path, so an encoded prefix (/%761/…) cannot slip past the pipeline.
 */
function isV1(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  const path = route ?? decodedPath(request.url);
  return path === '/v1' || path.startsWith('/v1/');
}

/**
 * The 403 an account's state gives a request (null = allowed): the API's rule, which the routes
 * outside /v1 that act for an account (webhook triggers) answer with too. The codes are written
 * out (not looked up) so the catalogue test finds each one raised.
 */
export function accountStateError(state: AccountState, subscription: Subscription, write: boolean): ApiError | null {
  switch (accountRefusal(state, subscription, write)) {
    case 'account_suspended':
      return new ApiError('account_suspended', 'The account is suspended.');
    case 'account_closed':
      return new ApiError('account_closed', 'The account is closed.');
    case 'subscription_inactive':
      return new ApiError('subscription_inactive', 'The plan has lapsed or ended: the account is read-only.');
    case null:
      return null;
  }
}

export function installPipeline(app: FastifyInstance, deps: PipelineDeps): void {
  const retire = retirementHeaders(deps.retirements);

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id);
    if (!isV1(request)) return;
    if (!deps.config.apiOpen) throw new ApiError('api_not_available', 'The API is not open yet.');

    const auth = await deps.authenticator.authenticate(request);
    request.auth = auth;
    if (!auth.apiOpen) throw new ApiError('api_not_available', 'The API is not open yet for this account.');

    // Routing comes before the account, scope, limits and any body parsing.
    if (request.is404) throw deps.routingError(request);
    const meta = request.routeOptions.config?.meta;
    if (!meta) throw new Error(`route ${request.routeOptions.url} declares no scope`);

    const refused = accountStateError(auth.state, auth.subscription, meta.write);
    if (refused) throw refused;
    if (!auth.scopes.has(meta.scope)) {
      throw new ApiError('insufficient_scope', `This key lacks the ${meta.scope} scope.`);
    }

    const limit = limitsFor(auth.tier, { requests_per_minute: auth.requestsPerMinute }).requestsPerMinute;
    const hit = await deps.requests.hit(`k:${auth.keyId}`);
    const resetS = Math.max(1, Math.ceil(hit.resetMs / 1000));
    reply.header('ratelimit-limit', String(limit));
    reply.header('ratelimit-remaining', String(Math.max(0, limit - hit.count)));
    reply.header('ratelimit-reset', String(resetS));
    if (hit.count > limit) {
      throw new ApiError('rate_limited', `Too many requests for this key this minute; wait ${resetS} s.`, {
        headers: { 'retry-after': String(resetS) },
      });
    }

    const r = retire.get(`${request.method} ${request.routeOptions.url}`);
    if (r) reply.headers(r);
  });
}
