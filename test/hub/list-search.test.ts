// The pickers' server search (issue 24): q on the hub's workflow, content project and project item
// lists is a case-insensitive substring of the name (title for items), trimmed; % and _ are
// themselves, not LIKE wildcards; an over-long q is the hub's 400 invalid_parameter; another
// account's rows never match; a cursor belongs to its q. /v1's lists take no q at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { MAX_SEARCH_LENGTH } from '../../src/http/schemas.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { hubClient, type HubClient } from '../helpers/hub.js';
import { bearer, expectError, seed } from '../http/fixtures.js';

let t: TestApp;
let S: Record<string, AccountSeedResult>;
let hub: HubClient;

// The same names in both accounts: a search must still find only the caller's own.
const NAMES = ['Spring Sale', 'spring cleaning', '100% Off', '100 Off', 'snake_case', 'snakeXcase', 'Autumn'];

function acct(ref: string): Record<string, unknown> {
  return {
    ref,
    name: `Account ${ref}`,
    users: [
      { ref: 'own', email: `own@${ref}.example`, role: 'owner' },
      { ref: 'mem', email: `mem@${ref}.example`, role: 'member' },
    ],
    keys: [{ ref: 'k', name: 'Reader', created_by: 'own', scopes: ['content:read', 'workflows:read'] }],
    projects: [
      { ref: 'site', name: 'Website', items: NAMES.map((title, i) => ({ ref: `i${i}`, kind: 'link', title, url: `https://x.example/${i}` })) },
      ...NAMES.map((name, i) => ({ ref: `p${i}`, name, items: [] })),
    ],
    workflows: NAMES.map((name, i) => ({ ref: `w${i}`, name, status: 'draft', blocks: [] })),
  };
}

beforeAll(async () => {
  t = await testApp();
  S = await seed(t.db, acct('a'), acct('b'));
  hub = await hubClient(t, { accountId: S.a.id, userId: S.a.users.mem, email: 'mem@a.example' });
});
afterAll(() => t?.close());

type Row = { id: string; name?: string; title?: string };

const lists = [
  { what: 'workflows', url: () => '/hub/api/workflows', ids: (ref: string) => Object.values(S[ref].workflows), text: (r: Row) => r.name },
  {
    what: 'projects',
    url: () => '/hub/api/projects',
    ids: (ref: string) => Object.values(S[ref].projects),
    text: (r: Row) => r.name,
  },
  {
    what: "a project's items",
    url: () => `/hub/api/projects/${S.a.projects.site}/items`,
    ids: (ref: string) => Object.values(S[ref].items),
    text: (r: Row) => r.title,
  },
];

async function search(url: string, q: string, extra = ''): Promise<{ data: Row[]; has_more: boolean; next_cursor: string | null }> {
  const res = await hub.get(`${url}?q=${encodeURIComponent(q)}${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe.each(lists)('q on $what', ({ url, ids, text }) => {
  it('matches a substring of the name, ignoring case, trimmed', async () => {
    const page = await search(url(), '  SPRING ');
    expect(page.data.map(text).sort()).toEqual(['Spring Sale', 'spring cleaning']);
    expect((await search(url(), 'ing cle')).data.map(text)).toEqual(['spring cleaning']);
    expect((await search(url(), 'nothing like this')).data).toEqual([]);
  });

  it('takes % and _ as themselves, not as wildcards', async () => {
    expect((await search(url(), '100%')).data.map(text)).toEqual(['100% Off']);
    expect((await search(url(), '%')).data.map(text)).toEqual(['100% Off']);
    expect((await search(url(), 'snake_')).data.map(text)).toEqual(['snake_case']);
    expect((await search(url(), '_')).data.map(text)).toEqual(['snake_case']);
  });

  it('a blank q is no filter', async () => {
    const all = await search(url(), '   ', '&limit=100');
    expect(all.data.length).toBeGreaterThanOrEqual(NAMES.length);
  });

  it('never returns another account\'s rows', async () => {
    const theirs = new Set(ids('b'));
    for (const q of ['spring', '%', '_', 'o']) {
      const page = await search(url(), q, '&limit=100');
      expect(page.data.length).toBeGreaterThan(0);
      for (const r of page.data) expect(theirs.has(r.id)).toBe(false);
    }
  });

  it('pages within the search; a cursor is bound to its q', async () => {
    const first = await search(url(), 'spring', '&limit=1');
    expect(first.has_more).toBe(true);
    const second = await search(url(), 'spring', `&limit=1&cursor=${first.next_cursor}`);
    expect([...first.data, ...second.data].map(text).sort()).toEqual(['Spring Sale', 'spring cleaning']);
    expect(second.has_more).toBe(false);
    expectError(await hub.get(`${url()}?q=autumn&limit=1&cursor=${first.next_cursor}`), 400, 'invalid_request', 'invalid_cursor', 'cursor');
  });

  it(`refuses a q longer than ${MAX_SEARCH_LENGTH} characters`, async () => {
    expect((await hub.get(`${url()}?q=${'x'.repeat(MAX_SEARCH_LENGTH)}`)).statusCode).toBe(200);
    expectError(await hub.get(`${url()}?q=${'x'.repeat(MAX_SEARCH_LENGTH + 1)}`), 400, 'invalid_request', 'invalid_parameter', 'q');
  });
});

describe('/v1 is unchanged', () => {
  it('its workflow, project and item lists refuse q as an unknown parameter', async () => {
    const key = S.a.keys.k;
    for (const path of ['/v1/workflows', '/v1/projects', `/v1/projects/${S.a.projects.site}/items`]) {
      const res = await t.app.inject({ method: 'GET', url: `${path}?q=spring`, headers: bearer(key) });
      expectError(res, 400, 'invalid_request', 'unknown_parameter', 'q');
    }
  });
});
