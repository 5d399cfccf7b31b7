// What the request log may say about a request. Two routes carry their credential in the path:
// an automation's webhook (/hooks/automations/:secret, the secret shown once and stored only
// hashed) and an unsubscribe link (/unsubscribe/:token). fastify's own serializer logs the URL as
// sent, which would write a working credential into every log reader's hands; here such a
// parameter is replaced, whatever encoding the URL used. API keys travel in a header, which is
// never logged.
import type { FastifyRequest } from 'fastify';

/** Route parameters that are credentials. */
const SECRET_PARAMS = new Set(['secret', 'token']);
/** The same paths by prefix, for a request that matched no route (a mistyped or re-encoded one). */
const SECRET_PREFIX = /^(\/+hooks\/+automations\/+|\/+unsubscribe\/+)[^?#]*/i;

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * A query string with its `token` values redacted: the hub's set-password page carries its
 * one-time link in `?token=` (the browser asks the server for that page like any other).
 */
function loggableQuery(query: string): string {
  return query.replace(/([?&;](?:%74|t)(?:%6f|o)(?:%6b|k)(?:%65|e)(?:%6e|n)=)[^&;#]*/gi, '$1[redacted]');
}

/** Per route pattern (finitely many): the pattern with its secret parameters redacted, or null when it has none. */
const redactedPatterns = new Map<string, string | null>();

function redactedPattern(pattern: string): string | null {
  let redacted = redactedPatterns.get(pattern);
  if (redacted === undefined) {
    const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1]!); // group 1 is required
    redacted = names.some((n) => SECRET_PARAMS.has(n))
      ? pattern.replace(/:(\w+)/g, (m, n: string) => (SECRET_PARAMS.has(n) ? '[redacted]' : m))
      : null;
    redactedPatterns.set(pattern, redacted);
  }
  return redacted;
}

/** The URL to log: secret path parameters and `token` query values as `[redacted]`, the query string kept otherwise. */
export function loggableUrl(request: Pick<FastifyRequest, 'url'> & { routeOptions?: { url?: string } }): string {
  const q = request.url.indexOf('?');
  const path = q < 0 ? request.url : request.url.slice(0, q);
  const query = q < 0 ? '' : loggableQuery(request.url.slice(q));
  const pattern = request.routeOptions?.url;
  const redacted = pattern ? redactedPattern(pattern) : null;
  if (redacted !== null) return redacted + query;
  // Every request's log line comes through here: decode only a path that has an escape in it.
  const plain = path.includes('%') ? decoded(path) : path;
  return SECRET_PREFIX.test(plain) ? plain.replace(SECRET_PREFIX, '$1[redacted]') + query : path + query;
}

/** fastify's `req` serializer with the URL made loggable. */
export function requestSerializer(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggableUrl(request),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
