// OpenAPI 3.1, generated from the route schemas by @fastify/swagger; never written by hand.
import type { SwaggerOptions } from '@fastify/swagger';
import { ERROR_CATALOGUE, HUB_ERROR_CATALOGUE } from '../domain/errors.js';
import { HUB_TAG, SESSION_COOKIE } from '../domain/hub.js';
import { OPTIONAL_BODY } from './route.js';

type Operation = { requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } };

/** A request body marked optional by its route (route.ts optionalBody) is documented as such. */
function markOptionalBodies(doc: Record<string, unknown>): Record<string, unknown> {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const op of Object.values(item)) {
      const media = Object.values(op?.requestBody?.content ?? {});
      if (!media.some((m) => m.schema?.[OPTIONAL_BODY])) continue;
      op.requestBody!.required = false;
      for (const m of media) delete m.schema?.[OPTIONAL_BODY];
    }
  }
  return doc;
}

/** The error catalogue as a Markdown table: every code is documented with its status and type. */
function errorTable(catalogue: Record<string, { status: number; type: string; condition: string }> = ERROR_CATALOGUE): string {
  const rows = Object.entries(catalogue).map(([code, e]) => `| ${e.status} | ${e.type} | ${code} | ${e.condition} |`);
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
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'svc_live_… API key' },
          hubSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: "The hub's session cookie (set by sign-in; HttpOnly)." },
        },
      },
      security: [{ apiKey: [] }],
      // The hub's own API (/hub/api): a session cookie instead of a key, and a few codes of its own
      // on top of the catalogue above (kept apart so /v1's stays exactly the spec's).
      tags: [
        {
          name: HUB_TAG,
          description:
            "The web hub's API under /hub/api: authenticated by the session cookie (sign in with POST /hub/api/session); " +
            'every POST, PUT, PATCH and DELETE needs a same-origin Origin and the session\'s x-csrf-token. ' +
            'Besides the codes above, it answers these:\n\n' +
            errorTable(HUB_ERROR_CATALOGUE),
        },
      ],
      'x-hub-error-codes': Object.fromEntries(
        Object.entries(HUB_ERROR_CATALOGUE).map(([code, e]) => [code, { status: e.status, type: e.type, condition: e.condition }]),
      ),
      'x-error-codes': Object.fromEntries(
        Object.entries(ERROR_CATALOGUE).map(([code, e]) => [code, { status: e.status, type: e.type, condition: e.condition }]),
      ),
    } as Record<string, unknown>,
    transformObject: (documentObject) => markOptionalBodies('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
  };
}
