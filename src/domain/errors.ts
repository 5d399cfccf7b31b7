// The closed catalogue of error codes: exactly the spec's Errors table, and the one class a refusal
// is thrown as (ApiError), by route handlers and by the services the CLI and the hub share alike
// (a service's Refusal, src/services/refusal.ts, carries one of these codes too). It leaves the
// server as the spec's body in one place only: src/http/errors.ts (toErrorBody), by way of
// src/http/error-handler.ts.

export const ERROR_CATALOGUE = {
  invalid_parameter: { status: 400, type: 'invalid_request', condition: 'A query parameter has a value it cannot take; param names it.' },
  unknown_parameter: { status: 400, type: 'invalid_request', condition: 'Query parameter the endpoint does not accept.' },
  invalid_id: { status: 400, type: 'invalid_request', condition: 'Id in path or id parameter not in the form the endpoint takes (a UUID unless stated otherwise).' },
  invalid_cursor: { status: 400, type: 'invalid_request', condition: 'Cursor was not given out by this endpoint.' },
  invalid_json: { status: 400, type: 'invalid_request', condition: 'Body is not valid JSON.' },
  missing_idempotency_key: { status: 400, type: 'invalid_request', condition: 'Starting a run or enrolling contacts without Idempotency-Key.' },
  missing_field: { status: 400, type: 'invalid_request', condition: 'Required body field missing; param names it.' },
  invalid_idempotency_key: { status: 400, type: 'invalid_request', condition: 'Idempotency-Key is not 8 to 64 printable characters without spaces.' },
  invalid_api_key: { status: 401, type: 'authentication', condition: 'No key, malformed, or nonexistent.' },
  api_key_revoked: { status: 401, type: 'authentication', condition: 'Key revoked.' },
  api_key_expired: { status: 401, type: 'authentication', condition: 'Key passed its expiry date.' },
  account_out_of_credit: { status: 402, type: 'insufficient_credit', condition: 'Account out of AI credit; no run started.' },
  key_spend_cap_reached: { status: 402, type: 'insufficient_credit', condition: 'Key used its monthly spend cap.' },
  insufficient_scope: { status: 403, type: 'permission', condition: 'Key lacks the scope; message names it.' },
  account_suspended: { status: 403, type: 'permission', condition: 'Account suspended.' },
  account_closed: { status: 403, type: 'permission', condition: 'Account closed.' },
  subscription_inactive: { status: 403, type: 'permission', condition: 'Plan ended or lapsed; account read-only; writes and run starts refused.' },
  resource_not_found: { status: 404, type: 'not_found', condition: 'No such id in this account (including ids of other accounts).' },
  route_not_found: { status: 404, type: 'not_found', condition: 'No endpoint at that path.' },
  api_not_available: { status: 404, type: 'not_found', condition: 'API not open yet; every request gets this until it is.' },
  method_not_allowed: { status: 405, type: 'invalid_request', condition: 'Path exists but not with that method; Allow header lists methods.' },
  idempotency_in_progress: { status: 409, type: 'conflict', condition: 'A request with this key is still being handled; retry same key in a few seconds.' },
  idempotency_outcome_unknown: { status: 409, type: 'conflict', condition: 'The first request with this key did not finish; it is never run again.' },
  automation_not_published: { status: 409, type: 'conflict', condition: 'Automation is a draft or paused.' },
  contact_exists: { status: 409, type: 'conflict', condition: 'Another contact in the account has that email; resource_id is its id.' },
  contact_do_not_contact: { status: 409, type: 'conflict', condition: 'Address belongs to someone erased at their request; cannot be added or changed.' },
  opt_out_locked: { status: 409, type: 'conflict', condition: 'Contact opted out of email; the API cannot opt them back in.' },
  body_too_large: { status: 413, type: 'invalid_request', condition: 'Body over 1 MB.' },
  page_too_large: { status: 413, type: 'invalid_request', condition: 'Page too large once converted to HTML.' },
  unsupported_media_type: { status: 415, type: 'invalid_request', condition: 'Body is not application/json.' },
  unknown_field: { status: 422, type: 'invalid_request', condition: 'Body has a field the endpoint does not take; param names it.' },
  invalid_body: { status: 422, type: 'invalid_request', condition: 'Body is not a JSON object.' },
  invalid_field: { status: 422, type: 'invalid_request', condition: 'A body field has a value it cannot take; param names it.' },
  workflow_empty: { status: 422, type: 'invalid_request', condition: 'Workflow has no blocks.' },
  idempotency_key_reused: { status: 422, type: 'invalid_request', condition: 'Key already used for a different request.' },
  rate_limited: { status: 429, type: 'rate_limit', condition: 'Too many requests for this key in the current minute; wait Retry-After seconds.' },
  too_many_failed_auth: { status: 429, type: 'rate_limit', condition: 'Too many wrong-key requests from one address in a minute.' },
  run_rate_limited: { status: 429, type: 'rate_limit', condition: 'Account started as many API runs in the last minute as its plan allows.' },
  concurrency_limited: { status: 429, type: 'rate_limit', condition: 'Account has as many API runs queued or running as its plan allows.' },
  internal_error: { status: 500, type: 'api_error', condition: 'Server-side failure; retry with backoff; quote request_id.' },
} as const;

/**
 * Codes only the hub's own API (/hub/api) answers: sessions, CSRF, roles, set-up, users. Kept apart
 * so /v1's catalogue stays exactly the spec's table; same envelope, same types.
 */
export const HUB_ERROR_CATALOGUE = {
  not_signed_in: { status: 401, type: 'authentication', condition: 'No hub session, or it expired or was ended; sign in again.' },
  sign_in_failed: { status: 401, type: 'authentication', condition: 'Wrong email or password.' },
  csrf_failed: { status: 403, type: 'permission', condition: 'A state-changing hub request without its session\'s CSRF token, or from another origin.' },
  role_forbidden: { status: 403, type: 'permission', condition: 'Your role in this account may not do this (owners and admins only).' },
  setup_token_required: { status: 403, type: 'permission', condition: 'Set-up from an address other than loopback needs the set-up token serve wrote to <data dir>/setup-token.' },
  account_not_chosen: { status: 409, type: 'conflict', condition: 'Signed in, but no account picked yet.' },
  setup_done: { status: 409, type: 'conflict', condition: 'The store already has an account; set-up is over.' },
  user_exists: { status: 409, type: 'conflict', condition: 'The account already has a user with that email; resource_id is its id.' },
  last_owner: { status: 409, type: 'conflict', condition: 'The account\'s last owner cannot be removed or lose the owner role.' },
  run_not_awaiting_approval: { status: 409, type: 'conflict', condition: 'Only a run awaiting approval can be approved or rejected.' },
  run_already_final: { status: 409, type: 'conflict', condition: 'The run has already ended; it cannot be cancelled.' },
  user_has_keys: { status: 409, type: 'conflict', condition: 'The user created API keys still in use; revoke or roll them first. resource_id is the user.' },
  key_limit_reached: { status: 409, type: 'conflict', condition: 'The account already has 10 active keys; revoke one first.' },
  key_not_active: { status: 409, type: 'conflict', condition: 'Only an active key can be rolled: this one is revoked, expired or already rolled.' },
  invalid_link: { status: 410, type: 'invalid_request', condition: 'The one-time link is unknown, used or expired.' },
  too_many_sign_ins: { status: 429, type: 'rate_limit', condition: 'Too many failed sign-ins for this email from this address, or from this address (failures count; other addresses are not held back); wait Retry-After seconds.' },
  automation_status_conflict: { status: 409, type: 'conflict', condition: 'The automation\'s status forbids the move (pause a paused one, resume a draft, publish with nothing changed).' },
  automation_not_publishable: { status: 422, type: 'invalid_request', condition: 'The draft cannot be published yet: it has no trigger type or no steps, or a step config, its schedule or its Run-only-if filter is incomplete (param names the first).' },
  workflow_changed: { status: 409, type: 'conflict', condition: 'The workflow was saved by someone else after the version being edited (expected_updated_at); reload it.' },
  automation_run_not_active: { status: 409, type: 'conflict', condition: 'The automation run already ended; only a running or waiting run can be stopped.' },
  run_cannot_run_again: { status: 409, type: 'conflict', condition: 'Only a failed, partial, cancelled or rejected run can be run again (retried), and only while its workflow exists.' },
  message_cannot_resend: { status: 409, type: 'conflict', condition: 'Only a failed message can be re-sent (an unknown one only when forced), each message once (resource_id: its re-send), and never to a contact who may not be contacted now.' },
  wrong_password: { status: 403, type: 'permission', condition: 'The current password given is wrong (it counts as a failed sign-in).' },
  email_needs_delivery: { status: 409, type: 'conflict', condition: 'A new email is confirmed by a link sent to it, and this hub has no real email (SMTP) configured; an owner or admin can change it on Users.' },
  too_many_link_requests: { status: 429, type: 'rate_limit', condition: 'Too many forgot-password requests from this address or for this email; wait Retry-After seconds.' },
  work_area_open: { status: 409, type: 'conflict', condition: 'The project already opened work management; rename its key prefix instead.' },
  work_item_changed: { status: 409, type: 'conflict', condition: 'The work item was changed by someone else after the version being edited (expected_updated_at); reload it.' },
  sprint_state_conflict: { status: 409, type: 'conflict', condition: 'The sprint\'s state forbids the move (edit or start one not planned, finish one not active), or another sprint of the project is active.' },
  not_your_comment: { status: 403, type: 'permission', condition: 'Only the person who wrote a comment may edit or delete it.' },
  block_tests_limited: { status: 429, type: 'rate_limit', condition: 'The account tested blocks as often as a minute allows (Test this block); wait Retry-After seconds.' },
} as const;

const ALL_ERRORS = { ...ERROR_CATALOGUE, ...HUB_ERROR_CATALOGUE };

export type ErrorCode = keyof typeof ALL_ERRORS;
export type ErrorType = (typeof ALL_ERRORS)[ErrorCode]['type'];

export interface ApiErrorOptions {
  param?: string;
  resourceId?: string;
  /** Extra response headers (Retry-After, Allow). */
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly param?: string;
  readonly resourceId?: string;
  readonly headers?: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: ApiErrorOptions = {},
  ) {
    super(message);
    const entry = ALL_ERRORS[code];
    this.status = entry.status;
    this.type = entry.type;
    this.param = opts.param;
    this.resourceId = opts.resourceId;
    this.headers = opts.headers;
  }
}

export const notFound = (what = 'resource'): ApiError =>
  new ApiError('resource_not_found', `No such ${what} in this account.`);

/** The row a read found, or the 404 every read answers when the account has no such `what`. */
export function found<T>(row: T | null | undefined, what: string): T {
  if (row === null || row === undefined) throw notFound(what);
  return row;
}
