// Backlog ranks under real concurrency on PostgreSQL (PGlite has one connection, so nothing runs
// beside a request there): moves into one gap held behind the project's row lock and let go
// together, and creates racing moves, never leave two items with one rank, and every item ends
// where its own move put it relative to the anchor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { seed } from '../http/fixtures.js';
import { workAccount, workClients, type WorkClients } from './work-support.js';
import { heldBehind } from './work-races.js';

let t: TestApp;
let s: Record<string, AccountSeedResult>;
let c: WorkClients;

const MOVERS = 8;

beforeAll(async () => {
  t = await testApp();
  const items = Array.from({ length: MOVERS + 2 }, (_, i) => ({ key: `WEB-${i + 1}`, type: 'task', title: `Item ${i + 1}` }));
  const fixture = (ref: string) => workAccount(ref, { projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }], workmgmt: { site: { items } } });
  s = await seed(t.db, fixture('acme'), fixture('other'));
  c = await workClients(t, s);
});
afterAll(() => t?.close());

const items = () => `/hub/api/workmgmt/projects/${s.acme.projects.site}/items`;
const ranks = () =>
  t.db.query<{ number: number; rank: string }>('select number, rank from wm_items where account_id = $1 order by rank', [s.acme.id]);
const expectDistinct = async () => {
  const rows = await ranks();
  expect(new Set(rows.map((r) => r.rank)).size).toBe(rows.length);
  return rows.map((r) => r.number);
};

describe('concurrent moves', () => {
  it('moves into the same gap, let go together: distinct ranks, all between the two neighbours', async () => {
    // Every mover goes right after WEB-1, i.e. into the gap between WEB-1 and WEB-2.
    const movers = Array.from({ length: MOVERS }, (_, i) => `WEB-${i + 3}`);
    const results = await heldBehind(t, 'select 1 from projects where id = $1 for update', [s.acme.projects.site], MOVERS, () =>
      movers.map((key, i) => (i % 2 ? c.sam : c.member).post(`${items()}/${key}/move`, { after: 'WEB-1' })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(movers.map(() => 200));
    const order = await expectDistinct();
    expect(order[0]).toBe(1);
    expect(order.at(-1)).toBe(2);
    expect(order.slice(1, -1).sort((a, b) => a - b)).toEqual(movers.map((k) => Number(k.slice(4))));
  });

  it('creates at the end racing moves to the end: distinct ranks, every create after the items before it', async () => {
    const sent = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => c.member.post(items(), { type: 'task', title: `New ${i}` })),
      ...Array.from({ length: 4 }, (_, i) => c.sam.post(`${items()}/WEB-${i + 3}/move`, { before: 'WEB-2' })),
    ]);
    expect(sent.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201, 201, 201, 201, 201, 201]);
    const order = await expectDistinct();
    expect(order.slice(-6).sort((a, b) => a - b)).toEqual([11, 12, 13, 14, 15, 16]);
  });
});
