// Defects the fuzzer found, each pinned by a focused test (the fuzz files find them only for
// some seeds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await testApp();
  const res = await seed(t.db, account('acme', { keys: [{ scopes: ['workflows:read', 'contacts:read', 'workmgmt:read'] }] }));
  key = res.acme.keys.main;
});
afterAll(() => t?.close());

const longId = (n: number) => 'a'.repeat(n);

describe('over-long path ids', () => {
  it('names the parameter at fault in 400 invalid_id, as a short malformed id does', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/workflows/${longId(3000)}`, headers: bearer(key) });
    expectError(res, 400, 'invalid_request', 'invalid_id', 'id');
    const wm = await t.app.inject({ method: 'GET', url: `/v1/workmgmt/projects/${longId(3000)}/items`, headers: bearer(key) });
    expectError(wm, 400, 'invalid_request', 'invalid_id', 'project_id');
  });

  it('a wrong method at a path with a long id is 405 with Allow, as with a short id', async () => {
    for (const n of [36, 150, 2048, 3000]) {
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/contacts/${longId(n)}`, headers: bearer(key) });
      expectError(res, 405, 'invalid_request', 'method_not_allowed');
      expect(res.headers.allow, `id of ${n} characters`).toBe('GET, PATCH');
    }
  });
});
