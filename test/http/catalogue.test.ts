// The error catalogue is closed and exactly the spec's table; every entry is documented in the
// OpenAPI document; every entry is raised somewhere in src/ — except the ones whose endpoints are
// not built yet, which are listed below with the issue that builds them. That list may only shrink.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { raisedCodes } from '../helpers/raised-codes.js';

// The spec's Errors table: status, type, code.
const SPEC_TABLE: [number, string, string][] = [
  [400, 'invalid_request', 'invalid_parameter'],
  [400, 'invalid_request', 'unknown_parameter'],
  [400, 'invalid_request', 'invalid_id'],
  [400, 'invalid_request', 'invalid_cursor'],
  [400, 'invalid_request', 'invalid_json'],
  [400, 'invalid_request', 'missing_idempotency_key'],
  [400, 'invalid_request', 'missing_field'],
  [400, 'invalid_request', 'invalid_idempotency_key'],
  [401, 'authentication', 'invalid_api_key'],
  [401, 'authentication', 'api_key_revoked'],
  [401, 'authentication', 'api_key_expired'],
  [402, 'insufficient_credit', 'account_out_of_credit'],
  [402, 'insufficient_credit', 'key_spend_cap_reached'],
  [403, 'permission', 'insufficient_scope'],
  [403, 'permission', 'account_suspended'],
  [403, 'permission', 'account_closed'],
  [403, 'permission', 'subscription_inactive'],
  [404, 'not_found', 'resource_not_found'],
  [404, 'not_found', 'route_not_found'],
  [404, 'not_found', 'api_not_available'],
  [405, 'invalid_request', 'method_not_allowed'],
  [409, 'conflict', 'idempotency_in_progress'],
  [409, 'conflict', 'idempotency_outcome_unknown'],
  [409, 'conflict', 'automation_not_published'],
  [409, 'conflict', 'contact_exists'],
  [409, 'conflict', 'contact_do_not_contact'],
  [409, 'conflict', 'opt_out_locked'],
  [413, 'invalid_request', 'body_too_large'],
  [413, 'invalid_request', 'page_too_large'],
  [415, 'invalid_request', 'unsupported_media_type'],
  [422, 'invalid_request', 'unknown_field'],
  [422, 'invalid_request', 'invalid_body'],
  [422, 'invalid_request', 'invalid_field'],
  [422, 'invalid_request', 'workflow_empty'],
  [422, 'invalid_request', 'idempotency_key_reused'],
  [429, 'rate_limit', 'rate_limited'],
  [429, 'rate_limit', 'too_many_failed_auth'],
  [429, 'rate_limit', 'run_rate_limited'],
  [429, 'rate_limit', 'concurrency_limited'],
  [500, 'api_error', 'internal_error'],
];

// Codes whose endpoints are not built yet, with the issue that raises them. Shrinks to empty.
const NOT_YET_RAISED: Record<string, string> = {
};

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

describe('error catalogue', () => {
  it('is exactly the spec table', () => {
    const ours = Object.entries(ERROR_CATALOGUE).map(([code, e]) => [e.status, e.type, code]);
    expect(ours).toEqual(SPEC_TABLE);
  });

  it('documents every code in the OpenAPI document, with status, type and condition', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = doc['x-error-codes'] as Record<string, { status: number; type: string; condition: string }>;
    for (const [status, type, code] of SPEC_TABLE) {
      expect(documented[code], code).toMatchObject({ status, type });
      expect(documented[code].condition.length, code).toBeGreaterThan(5);
      expect(doc.info.description, code).toContain(`| ${code} |`);
    }
  });

  it('has every code raised in src/, apart from the listed not-yet-built ones', () => {
    const raised = raisedCodes();
    for (const [, , code] of SPEC_TABLE) {
      if (code in NOT_YET_RAISED) {
        expect(raised.has(code), `${code} is raised now: remove it from NOT_YET_RAISED`).toBe(false);
      } else {
        expect(raised.has(code), `${code} is never raised`).toBe(true);
      }
    }
  });
});
