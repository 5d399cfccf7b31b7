// Helpers that keep route files declarative: every /v1 route names its scope and whether it
// writes, and documents every error status it can answer.
import type { TSchema } from '@sinclair/typebox';
import { errorResponses, PIPELINE_ERRORS } from './schemas.js';
import type { RouteMeta } from './pipeline.js';

export function v1Responses(ok: Record<number, TSchema>, extraErrors: number[] = []): Record<number, TSchema> {
  const statuses = [...new Set([...PIPELINE_ERRORS, ...extraErrors])].sort();
  return { ...ok, ...errorResponses(statuses) };
}

/**
 * Marks a body schema as one a request may leave out (a run start takes nothing or {}). fastify
 * still validates a missing body as {} (error-handler.ts); @fastify/swagger would document every
 * body as required, so openapi.ts reads this mark, sets requestBody.required to false and drops it.
 */
export const OPTIONAL_BODY = 'x-optional-body';
export const optionalBody = <T extends TSchema>(schema: T): T => ({ ...schema, [OPTIONAL_BODY]: true });

export function meta(m: RouteMeta): { meta: RouteMeta } {
  return { meta: m };
}
