// Helpers that keep route files declarative: every /v1 route names its scope and whether it
// writes, and documents every error status it can answer.
import type { TSchema } from '@sinclair/typebox';
import { errorResponses, PIPELINE_ERRORS } from './schemas.js';
import type { RouteMeta } from './pipeline.js';

export function v1Responses(ok: Record<number, TSchema>, extraErrors: number[] = []): Record<number, TSchema> {
  const statuses = [...new Set([...PIPELINE_ERRORS, ...extraErrors])].sort();
  return { ...ok, ...errorResponses(statuses) };
}

export function meta(m: RouteMeta): { meta: RouteMeta } {
  return { meta: m };
}
