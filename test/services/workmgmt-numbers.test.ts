// Item numbers under concurrent creates (issue 27's acceptance): 50 creates at once in one project
// give 50 distinct keys with no gap, on either store (on PostgreSQL they really run at once, on
// the pool's connections; on PGlite they queue). A refused create takes no number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { createWorkItem } from '../../src/services/workmgmt/items.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { account, seed } from '../http/fixtures.js';

let t: TestDb;
let s: Record<string, AccountSeedResult>;

beforeAll(async () => {
  t = await freshDb();
  s = await seed(t.db, {
    ...account('acme'),
    users: [{ ref: 'owner', email: 'owner@acme.example', role: 'owner' }],
    projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }, { ref: 'app', name: 'App', workmgmt_prefix: 'APP' }],
    workmgmt: { site: { items: [{ key: 'WEB-7', type: 'task', title: 'Seeded' }] } },
  });
});
afterAll(() => t.close());

const numbers = async (projectId: string) =>
  (await t.db.query<{ number: number }>('select number from wm_items where account_id = $1 and project_id = $2 order by number', [s.acme.id, projectId])).map(
    (r) => r.number,
  );

describe('item numbers', () => {
  it('50 concurrent creates in one project: 50 distinct keys, no gap, after the numbers already used', async () => {
    const site = s.acme.projects.site;
    const keys = await Promise.all(Array.from({ length: 50 }, (_, i) => createWorkItem(t.db, s.acme.id, site, { type: 'task', title: `Task ${i}` })));
    expect(new Set(keys).size).toBe(50);
    const expected = Array.from({ length: 50 }, (_, i) => `WEB-${8 + i}`);
    expect([...keys].sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))).toEqual(expected);
    expect(await numbers(site)).toEqual([7, ...Array.from({ length: 50 }, (_, i) => 8 + i)]);
  });

  it('creates in two projects at once keep separate counters; refused creates take no number', async () => {
    const app = s.acme.projects.app;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => createWorkItem(t.db, s.acme.id, app, { type: 'task', title: i % 4 === 0 ? ' ' : `Task ${i}` })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(5);
    expect(await numbers(app)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
  });
});
