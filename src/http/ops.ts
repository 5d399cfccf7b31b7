// Operations endpoints outside /v1: liveness, readiness, the OpenAPI document.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { appliedVersion, latestVersion } from '../db/migrate.js';
import { providerReport } from '../delivery/transports/index.js';
import type { AppDeps } from './deps.js';

export function registerOpsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const expected = latestVersion();
  // Development providers (outbox email/SMS, the offline LLM) are named here as in the banner, so a
  // deployment check can refuse a server that would not really send (docs/architecture.md §10.5).
  const providers = providerReport(deps.config);

  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    if (deps.drain?.draining) {
      return reply.code(503).send({ status: 'draining', store: deps.db.capabilities.name, reason: 'the process is shutting down; send new requests elsewhere' });
    }
    let schema: number;
    try {
      schema = await appliedVersion(deps.db);
    } catch {
      return reply.code(503).send({ status: 'unavailable', store: deps.db.capabilities.name, reason: 'the store is not reachable' });
    }
    if (schema < expected) {
      return reply
        .code(503)
        .send({ status: 'unavailable', store: deps.db.capabilities.name, schema_version: schema, reason: `schema ${schema} is older than ${expected}` });
    }
    // A shared rate-limit store that is not answering leaves the process ready: requests are
    // limited by each process's own count meanwhile ("degraded"), never refused for it.
    const rateLimits = deps.counters.requests.health?.() ?? 'ok';
    return { status: 'ready', store: deps.db.capabilities.name, schema_version: schema, rate_limits: rateLimits, providers };
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
