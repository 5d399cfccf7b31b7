// Response serializers compiled on first use. fastify compiles a fast-json-stringify function for
// every status code of every route when the route is registered; across all routes that was about
// a third of a second of each start (bench 14), most of it for answers a process may never send.
// Here each route's serializer is compiled the first time that answer is sent, by the same
// compiler fastify would have used, with the same shared schemas: the output is identical.
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
      return (data) => (serialize ??= compile(route))(data);
    };
  };
}
