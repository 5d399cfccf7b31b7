// OpenAPI 3.1, generated from the route schemas by @fastify/swagger; never written by hand.
import type { SwaggerOptions } from '@fastify/swagger';
import { ERROR_CATALOGUE } from './errors.js';

/** The error catalogue as a Markdown table: every code is documented with its status and type. */
function errorTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([code, e]) => `| ${e.status} | ${e.type} | ${code} | ${e.condition} |`);
  return ['| Status | type | code | Condition |', '|---|---|---|---|', ...rows].join('\n');
}

export function openapiOptions(): SwaggerOptions {
  return {
    // x-error-codes is an OpenAPI extension the typed options do not list.
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Account Automation and Content API',
        version: '1',
        description:
          'JSON over HTTPS. Every request carries Authorization: Bearer <API_KEY>; every response carries X-Request-Id; ' +
          'successful metered answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset.\n\n' +
          'Every error has the body {"error": {type, code, message, param?, resource_id?, request_id}}.\n\n' +
          errorTable(),
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_… API key' } },
      },
      security: [{ apiKey: [] }],
      'x-error-codes': Object.fromEntries(
        Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, { status: e.status, type: e.type, condition: e.condition }]),
      ),
    } as Record<string, unknown>,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  };
}
