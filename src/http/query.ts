// Malformed percent-encoding in a query string. The router's parser keeps a part it cannot decode
// as its raw text (`?q=%E0%A4%A` would search for "%E0%A4%A"), so a client's encoding bug would
// silently become a different request. Every route that reads a query (every /v1 route: see the
// onRoute hook in app.ts) refuses it instead: 400 invalid_parameter, naming the parameter when its
// name can be decoded.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { printable } from '../lib/text.js';
import { ApiError } from '../domain/errors.js';

/** decodeURIComponent with `+` as a space, as query strings are written; null when it is not valid percent-encoded UTF-8. */
function decodePart(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The first part of the query string of `url` that does not decode: `{ param }` when only the
 * value is broken, `{}` when the name is; null when every part decodes. A truncated escape (%A),
 * a non-hex one (%ZZ) and bytes that are not UTF-8 (%FF, an encoded surrogate) are all malformed.
 */
export function malformedQueryPart(url: string): { param?: string } | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  for (const part of url.slice(q + 1).split('&')) {
    if (!part.includes('%')) continue;
    const eq = part.indexOf('=');
    const name = decodePart(eq < 0 ? part : part.slice(0, eq));
    if (name === null) return {};
    if (eq >= 0 && decodePart(part.slice(eq + 1)) === null) return { param: printable(name) };
  }
  return null;
}

export function installQueryCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (!request.routeOptions.schema?.querystring) return;
    const bad = malformedQueryPart(request.url);
    if (bad === null) return;
    throw bad.param === undefined
      ? new ApiError('invalid_parameter', 'The query string has a malformed percent-encoding (% must be followed by two hex digits of UTF-8).')
      : new ApiError('invalid_parameter', `The query parameter ${bad.param} has a malformed percent-encoding (% must be followed by two hex digits of UTF-8).`, {
          param: bad.param,
        });
  });
}
