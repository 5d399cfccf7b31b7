// Every error leaves the server as `{ error: { type, code, message, param?, resource_id?,
// request_id } }`, built here and nowhere else from the one error class (src/domain/errors.ts).
import type { ApiError } from '../domain/errors.js';

export interface ErrorBody {
  error: {
    type: string;
    code: string;
    message: string;
    param?: string;
    resource_id?: string;
    request_id: string;
  };
}

/** The single place an ApiError becomes the spec's body. `param`/`resource_id` are omitted when absent. */
export function toErrorBody(err: ApiError, requestId: string): ErrorBody {
  const body: Partial<ErrorBody['error']> = { type: err.type, code: err.code, message: err.message };
  if (err.param !== undefined) body.param = err.param;
  if (err.resourceId !== undefined) body.resource_id = err.resourceId;
  body.request_id = requestId;
  return { error: body as ErrorBody['error'] };
}
