// Search as clients use it: "any case" search folds letters alike on both sides (Greek final sigma,
// Turkish dotted I); a q of blanks is refused. A changed_since sync beside a concurrent writer (on
// PostgreSQL, where one can run beside the request): contacts-sync.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { account, bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let K: string;

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(K) });

beforeAll(async () => {
  t = await testApp();
  s = await seed(t.db, {
    ...account('acme', { tier: 'enterprise', keys: [{ ref: 'main', scopes: ['contacts:read', 'workmgmt:read', 'automations:read', 'usage:read'] }] }),
    projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }],
    workmgmt: {
      site: {
        items: [
          { key: 'WEB-1', type: 'task', title: 'ΝΕΟΣ ΣΧΕΔΙΑΣΜΟΣ' },
          { key: 'WEB-2', type: 'task', title: 'İstanbul office' },
          { key: 'WEB-3', type: 'task', title: 'Something else' },
        ],
      },
    },
    contacts: [
      { ref: 'nikos', email: 'n.p@example.org', first_name: 'ΝΙΚΟΣ' },
      { ref: 'x', email: 'x@example.org', first_name: 'X' },
      { ref: 'y', email: 'y@example.org', first_name: 'Y' },
      { ref: 'z', email: 'z@example.org', first_name: 'Z' },
    ],
  });
  K = s.acme.keys.main;
});
afterAll(() => t?.close());

const itemsQ = (q: string) => get(`/v1/workmgmt/projects/${s.acme.projects.site}/items?q=${encodeURIComponent(q)}`);

describe('search ignores case', () => {
  it('work items: q written exactly as the title (Greek final sigma, Turkish dotted I) finds the item', async () => {
    for (const [q, key] of [['ΝΕΟΣ', 'WEB-1'], ['ΣΧΕΔΙΑΣΜΟΣ', 'WEB-1'], ['İstanbul', 'WEB-2']] as const) {
      const res = await itemsQ(q);
      expect(res.statusCode, res.body).toBe(200);
      expect({ q, keys: res.json().data.map((i: any) => i.key) }).toEqual({ q, keys: [key] });
    }
  });

  it('contacts: a name in capitals is found by the same word in lower case (ΝΙΚΟΣ by νικος)', async () => {
    const res = await get(`/v1/contacts?q=${encodeURIComponent('νικος')}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((c: any) => c.id)).toEqual([s.acme.contacts.nikos]);
  });
});

describe('work items q of blanks only', () => {
  it('is refused like an empty q (400 invalid_parameter naming q), not ignored', async () => {
    expectError(await itemsQ('   '), 400, 'invalid_request', 'invalid_parameter', 'q');
  });
});
