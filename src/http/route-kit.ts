// The typed route kit. `App` is the fastify instance with the TypeBox type provider: a route's
// request.params, request.query and request.body are inferred from its schemas, so route files
// carry no casts. `authOf` reads the caller's key on a /v1 route, where the pipeline has always
// authenticated before the handler runs (pipeline.ts), as a non-null AuthContext.
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthContext } from './auth.js';
import type { RouteMeta } from './pipeline.js';

// Set by the pipeline's authentication on /v1 routes; null elsewhere (ops, inbound, hooks).
declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    meta?: RouteMeta;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * The authenticated caller of a /v1 route: a property read. A null here is a route registered
 * outside the pipeline's authentication (a programming error), so it fails loudly.
 */
export function authOf(request: FastifyRequest): AuthContext {
  const auth = request.auth;
  if (auth === null) throw new Error(`${request.method} ${request.routeOptions.url} is not an authenticated route`);
  return auth;
}
