// The HTTP kit's app: buildHttpApp(deps, mount) returns a ready-to-listen fastify instance with
// the whole request pipeline, the document and the ops routes, and whatever routes `mount` adds
// (the composition root, src/app.ts, mounts /v1 and the hub). The listener lives in the serve
// command; tests use inject().
import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import swagger from '@fastify/swagger';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Authenticator } from './auth.js';
import { appAuthCache } from './auth-cache-setup.js';
import type { AppDeps } from './deps.js';
import { ApiError } from '../domain/errors.js';
import { toErrorBody } from './errors.js';
import { clientErrorHandler, installErrorHandling } from './error-handler.js';
import { guardConnections, serverOptions } from './connections.js';
import { requestSerializer } from './log-redaction.js';
import { installRequestLog } from './request-log.js';
import { lazySerializerFactory } from './lazy-serializer.js';
import { installPipeline } from './pipeline.js';
import { registerOpsRoutes } from './ops.js';
import { installLoadShedding } from './load-shedding.js';
import { installQueryCheck } from './query.js';
import { openapiOptions } from './openapi.js';
import { RETIREMENTS } from './retirements.js';
import type { App } from './route-kit.js';
import { RouteTable } from './route-table.js';
import { ErrorSchema, NoQuery } from './schemas.js';
import { validatorCompiler } from './validation.js';

export const BODY_LIMIT = 1_048_576;
/** Longest path parameter the router takes; a longer one is 400 invalid_id naming it. */
const MAX_PARAM_LENGTH = 2048;

/** A request URL's path: what comes before its query. */
function pathOf(url: string): string {
  const [path = ''] = url.split('?');
  return path;
}

/** The app's instance, TypeBox-typed: what buildApp returns and every route registrar receives. */
export type { App } from './route-kit.js';

/** Every request line goes through our `req` serializer (no credential from a URL in the log). */
function withRequestSerializer(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return { ...options, serializers: { ...(options.serializers ?? {}), req: requestSerializer } };
}

/** The pages of a browser app served at /: an unmatched app URL gets the app's HTML. */
export interface AppPages {
  /** Whether this unmatched request is an app URL to answer with the app's HTML. */
  isAppUrl(request: FastifyRequest): boolean;
  sendApp(reply: FastifyReply): FastifyReply;
}

/**
 * Registers the app's own routes on the kit's app, after the pipeline, the document and the ops
 * routes and before the app is ready; answers the browser app's pages when it serves one.
 */
export type Mount = (app: App) => Promise<AppPages | null>;

export async function buildHttpApp(deps: AppDeps, mount: Mount): Promise<App> {
  const { config } = deps;
  // Deadlines for a request to arrive and for idle connections (fastify's defaults are none).
  const { handshakeTimeout, ...httpOptions } = serverOptions(config.http);
  const app = Fastify({
    logger: withRequestSerializer(deps.logger ?? false),
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory() as never } },
    genReqId: () => randomUUID(),
    // One compact line per request (request-log.ts) instead of fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    requestIdHeader: false, // never trust a caller's id: every response gets one of ours
    // a hop count or a list of proxies; never a blanket true (config refuses it)
    trustProxy: config.trustProxy as unknown as string[] | boolean,
    bodyLimit: BODY_LIMIT,
    exposeHeadRoutes: false,
    // Long path segments reach validation (400 invalid_id) instead of fastify's own 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Undecodable URLs and the like get the spec's error body and a request id too.
    frameworkErrors: (err, request, reply) => {
      reply.header('x-request-id', request.id);
      const apiErr =
        err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('invalid_id', 'An id in the path is far too long to be an id.', {
              param: routes.longParam(pathOf(request.url), MAX_PARAM_LENGTH),
            })
          : new ApiError('route_not_found', 'No endpoint at that path (it is not a valid URL).');
      (reply as unknown as FastifyReply).code(apiErr.status).send(toErrorBody(apiErr, request.id));
    },
    // While closing, requests already on open connections are still answered normally (in the
    // spec's shapes); fastify's own 503 would be a body outside the catalogue.
    return503OnClosing: false,
    clientErrorHandler,
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: httpOptions,
    ...(deps.https ? { https: { ...deps.https, ...httpOptions, handshakeTimeout } } : {}),
    // Typed as the plain HTTP server either way (the https options are spread in): the handlers
    // never touch the raw server.
  }).withTypeProvider<TypeBoxTypeProvider>();

  guardConnections(app, { http: config.http, trustProxy: config.trustProxy });
  // First of the request hooks: a shed request costs nothing more than its answer.
  const { metrics } = deps;
  const load = installLoadShedding(app, config.http, deps.drain, (reason) => metrics?.refused(`overload_${reason}`));
  if (metrics) {
    if (load) metrics.setSources({ shedLag: () => load.lagMs / 1000 });
    // By route template (never the URL, whose ids would make a label per resource).
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    });
  }
  if (deps.logger) installRequestLog(app);
  app.decorateRequest('auth', null);
  app.decorateRequest('hubAuth', null);
  app.decorateRequest('hubSession', null);
  app.setValidatorCompiler(validatorCompiler);

  const routes = new RouteTable();
  app.addHook('onRoute', (opts) => {
    for (const m of Array.isArray(opts.method) ? opts.method : [opts.method]) routes.add(m, opts.url);
    // Unknown query parameters are refused on every /v1 and hub API route, also on those that take none.
    if ((opts.url.startsWith('/v1') || opts.url.startsWith('/hub/api')) && !opts.schema?.querystring) {
      opts.schema = { ...opts.schema, querystring: NoQuery };
    }
  });

  const authCache = appAuthCache(deps.db, config.authCacheLeaseMs, app.log);
  app.addHook('onClose', async () => {
    await authCache.stop();
    for (const fn of deps.onClose ?? []) await fn();
    for (const c of new Set([deps.counters.requests, deps.counters.failedAuth])) await c.close();
  });
  installErrorHandling(app, (code) => deps.metrics?.refused(code));
  installQueryCheck(app);
  const routingError = (request: FastifyRequest): ApiError => {
    const path = pathOf(request.url);
    const allowed = routes.allowed(path);
    if (allowed.length) {
      return new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`, {
        headers: { allow: allowed.join(', ') },
      });
    }
    return new ApiError('route_not_found', `No endpoint at ${path}.`);
  };
  installPipeline(app, {
    config,
    routingError,
    authenticator: new Authenticator(deps.db, deps.counters.failedAuth, (err) => app.log.warn({ err }, 'key touch failed'), authCache.cache),
    requests: deps.counters.requests,
    retirements: deps.retirements ?? RETIREMENTS,
  });

  // Outside /v1 (the pipeline answers /v1 paths itself, before any body is read). An app URL of
  // the hub (a page the browser routes) gets the app's HTML.
  let appPages: AppPages | null = null;
  app.setNotFoundHandler((request, reply) => {
    if (appPages?.isAppUrl(request)) return appPages.sendApp(reply);
    throw routingError(request);
  });

  app.addSchema(ErrorSchema);
  await app.register(cookie);
  await app.register(swagger, openapiOptions());
  registerOpsRoutes(app, deps);
  appPages = await mount(app);
  await authCache.start();
  await app.ready();
  return app;
}
