// The hub's own error codes (HUB_ERROR_CATALOGUE, answered only under /hub/api): each documented
// in the OpenAPI document (x-hub-error-codes and the hub tag's table), none shadowing a /v1 code,
// each raised somewhere in src/, apart from the ones whose endpoints another part of the hub
// builds, listed below. That list may only shrink.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, HUB_ERROR_CATALOGUE } from '../../src/domain/errors.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { raisedCodes } from '../helpers/raised-codes.js';

// Codes of endpoints not built yet, with who raises them (empty: every hub code is raised today).
const NOT_YET_RAISED: Record<string, string> = {
};

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

describe('the hub error catalogue', () => {
  it('adds codes of its own only, each with a status of its type', () => {
    const statusOfType: Record<string, number[]> = { authentication: [401], permission: [403], conflict: [409], invalid_request: [400, 410, 422], rate_limit: [429] };
    for (const [code, e] of Object.entries(HUB_ERROR_CATALOGUE)) {
      expect(code in ERROR_CATALOGUE, `${code} shadows a /v1 code`).toBe(false);
      expect(statusOfType[e.type], code).toContain(e.status);
    }
  });

  it('documents every code in the OpenAPI document, with status, type and condition', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = doc['x-hub-error-codes'] as Record<string, { status: number; type: string; condition: string }>;
    expect(Object.keys(documented).sort()).toEqual(Object.keys(HUB_ERROR_CATALOGUE).sort());
    const hubTag = (doc.tags as { name: string; description: string }[]).find((x) => x.name === 'hub')!;
    for (const [code, e] of Object.entries(HUB_ERROR_CATALOGUE)) {
      expect(documented[code], code).toEqual({ status: e.status, type: e.type, condition: e.condition });
      expect(hubTag.description, code).toContain(`| ${e.status} | ${e.type} | ${code} |`);
    }
    // /v1's own table stays the spec's: no hub code in it.
    for (const code of Object.keys(HUB_ERROR_CATALOGUE)) {
      expect(doc['x-error-codes'][code], code).toBeUndefined();
      expect(doc.info.description, code).not.toContain(`| ${code} |`);
    }
  });

  it('has every code raised in src/, apart from the listed not-yet-built ones', () => {
    const raised = raisedCodes();
    for (const code of Object.keys(HUB_ERROR_CATALOGUE)) {
      if (code in NOT_YET_RAISED) expect(raised.has(code), `${code} is raised now: remove it from NOT_YET_RAISED`).toBe(false);
      else expect(raised.has(code), `${code} is never raised`).toBe(true);
    }
  });
});
