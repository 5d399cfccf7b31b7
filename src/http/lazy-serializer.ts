// Response serializers compiled on first use. fastify compiles a fast-json-stringify function for
// every status code of every route when the route is registered; across all routes that was about
// a third of a second of each start (bench 14), most of it for answers a process may never send.
// Here each route's serializer is compiled the first time that answer is sent, by the same
// compiler fastify would have used, with the same shared schemas: the output is identical.
//
// One rewrite on the way, for the serializer only (validation and the OpenAPI document keep the
// schema as written): `Nullable(X)` is `anyOf: [X, null]`, and fast-json-stringify serializes an
// anyOf by running Ajv over the value at every response to pick the branch — a UUID regex per
// nullable id and a full object validation (formats included) per `last_run`, on every row of
// every list. `X` with `nullable: true` writes the same JSON without validating anything.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;
type RouteSchema = { schema: unknown; method: string; url: string; httpStatus: string; contentType?: string };
type Compile = (route: RouteSchema) => Serialize;

/** fastify's `schemaController.compilersFactory.buildSerializer`, compiling lazily. */
export function lazySerializerFactory(): (externalSchemas: unknown, options: unknown) => Compile {
  const eager = SerializerSelector() as unknown as (externalSchemas: unknown, options: unknown) => Compile;
  return (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (route) => {
      let serialize: Serialize | null = null;
      return (data) => (serialize ??= compile({ ...route, schema: withNullable(route.schema) }))(data);
    };
  };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNullType = (v: unknown): boolean => isObject(v) && v.type === 'null' && Object.keys(v).every((k) => k === 'type' || k === 'description');

/**
 * The schema with every `anyOf: [X, {type: null}]` (either order) whose X is an inline typed
 * schema replaced by X plus `nullable: true`; anything else is copied as it is. A new object:
 * the route's own schema is shared with validation and the OpenAPI document.
 */
export function withNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNullable);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) out[k] = withNullable(v);
  const anyOf = schema.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nulls = anyOf.filter(isNullType);
    const other: unknown = anyOf.find((b) => !isNullType(b));
    if (nulls.length === 1 && isObject(other) && typeof other.type === 'string' && other.type !== 'null' && !('$ref' in other)) {
      const { anyOf: _dropped, ...rest } = out;
      return { ...(withNullable(other) as Json), ...rest, nullable: true };
    }
  }
  return out;
}
