// Shared TypeBox schemas: ids, the error body, the list envelope, and per-status error responses.
// Pure (TypeBox only): the resources' schema modules build on it and the web app imports them.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The format name of single-line text (checked by http/validation.ts). Declared here, not in the
 * validator, so this module stays pure: the web app reads its types without loading ajv. */
export const SINGLE_LINE = 'single-line';

/** A string enum as OpenAPI writes it ({type: string, enum: [...]}), typed as the union of its values. */
export const StringEnum = <const T extends readonly string[]>(values: T, opts: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });

/** A single line of text (src/lib/text.ts): no control characters, tab and line breaks included. Body strings not marked so are multi-line text. */
export const Line = (opts: { minLength?: number; maxLength?: number; pattern?: string; description?: string } = {}) =>
  Type.String({ ...opts, format: SINGLE_LINE });

export const Uuid = Type.String({ format: 'uuid', description: 'A UUID.' });
export const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 in UTC, ending in Z.' });
export const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

export const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      type: Type.String({ description: 'The kind; fixed for a given code.' }),
      code: Type.String({ description: 'What went wrong; for program logic.' }),
      message: Type.String({ description: 'A sentence for a person.' }),
      param: Type.Optional(Type.String({ description: 'The parameter, field or header at fault.' })),
      resource_id: Type.Optional(Type.String({ description: 'On 409 contact_exists, the existing contact.' })),
      request_id: Type.String({ description: 'Also sent as the X-Request-Id header.' }),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (invalid_parameter, unknown_parameter, invalid_id, invalid_cursor, invalid_json, missing_field, …).',
  401: 'Authentication failed (invalid_api_key, api_key_revoked, api_key_expired).',
  402: 'Insufficient credit (account_out_of_credit, key_spend_cap_reached).',
  403: 'Not permitted (insufficient_scope, account_suspended, account_closed, subscription_inactive).',
  404: 'Not found (resource_not_found, route_not_found, api_not_available).',
  405: 'Method not allowed; the Allow header lists the methods.',
  409: 'Conflict.',
  413: 'Body too large (body_too_large, page_too_large).',
  415: 'Body is not application/json (unsupported_media_type).',
  422: 'Unprocessable body (unknown_field, invalid_body, invalid_field, …).',
  429: 'Rate limited (rate_limited, too_many_failed_auth, …); see Retry-After.',
  500: 'Server-side failure (internal_error); quote request_id.',
};

/** Response schemas for the error statuses a route can answer; every route lists its own. */
export function errorResponses(statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const s of statuses) out[s] = Type.Ref(ErrorSchema, { description: ERROR_DESCRIPTIONS[s] ?? 'Error.' });
  return out;
}

/** Every /v1 route can also meet these at the pipeline layer. */
export const PIPELINE_ERRORS = [400, 401, 403, 404, 405, 429, 500];

export const ListEnvelope = <T extends TSchema>(item: T, title: string) =>
  Type.Object(
    {
      data: Type.Array(item),
      has_more: Type.Boolean({ description: 'true when another page exists.' }),
      next_cursor: Nullable(Type.String({ description: 'Opaque; pass as cursor for the next page.' })),
    },
    { title },
  );

/** The query schema of routes that take no query parameters: any parameter is unknown. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

export const ListQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25, description: '1 to 100; default 25.' })),
  // Any string: one this endpoint did not give out (empty, too long, forged) is 400 invalid_cursor.
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page.' })),
};

/** The longest search text a hub list takes (as /v1's contact search). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The hub's search of a list by name or title (its pickers ask the server as the user types): a
 * case-insensitive substring, matched as typed (% and _ are themselves), blanks around it trimmed.
 */
export const NameSearch = (field: 'name' | 'title') =>
  Type.Optional(
    Type.String({
      maxLength: MAX_SEARCH_LENGTH,
      description: `Only rows whose ${field} contains this text, ignoring case (surrounding blanks trimmed; blank = no filter). At most ${MAX_SEARCH_LENGTH} characters.`,
    }),
  );

/**
 * One page of any list (/v1's and the hub's): what ListEnvelope describes, for items of type T.
 * The web app's one Page<T>.
 */
export type ListPage<T> = Omit<Static<ReturnType<typeof ListEnvelope>>, 'data'> & { data: T[] };
