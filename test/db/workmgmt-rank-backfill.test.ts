// Migration 0037's backfill, on both stores: items that existed before ranks get keys of
// src/lib/rank.ts's form in key (number) order, so the backlog of an older store reads as its list
// did, and a move or a create ranks next to them. The migration's own UPDATE is run on items whose
// rank is cleared (numbers spread over the base-62 digits, up to two billion).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSeedResult } from '../../src/fixtures/load.js';
import { isRank, rankBetween } from '../../src/lib/rank.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { account, seed } from '../http/fixtures.js';

const MIGRATION = new URL('../../src/db/migrations/0037_workmgmt_ranks.sql', import.meta.url);
const NUMBERS = [1, 2, 9, 10, 61, 62, 63, 3843, 3844, 238_327, 1_000_000, 2_000_000_000];

let t: TestDb;
let acme: AccountSeedResult;

beforeAll(async () => {
  t = await freshDb();
  const items = NUMBERS.map((n) => ({ key: `WEB-${n}`, type: 'task', title: `Item ${n}` })).reverse();
  acme = (await seed(t.db, { ...account('acme'), projects: [{ ref: 'site', name: 'Website', workmgmt_prefix: 'WEB' }], workmgmt: { site: { items } } })).acme;
});
afterAll(() => t.close());

describe('migration 0037 backfill', () => {
  it('ranks the existing items in number order, each a rank the key function accepts and extends', async () => {
    const update = /update wm_items set rank[\s\S]*?\n\);/.exec(fs.readFileSync(MIGRATION, 'utf8'))?.[0];
    expect(update).toBeDefined();
    await t.db.query('update wm_items set rank = null where account_id = $1', [acme.id]);
    await t.db.query(update!);
    const rows = await t.db.query<{ number: number; rank: string }>('select number, rank from wm_items where account_id = $1 order by rank', [acme.id]);
    expect(rows.map((r) => r.number)).toEqual(NUMBERS);
    expect(rows.every((r) => isRank(r.rank))).toBe(true);
    const ranks = rows.map((r) => r.rank);
    expect(ranks.every((r, i) => i === 0 || ranks[i - 1] < r)).toBe(true);
    expect(rankBetween(ranks.at(-1)!, null) > ranks.at(-1)!).toBe(true);
    expect(rankBetween(ranks[0], ranks[1])).toBe('f000001V');
  });
});
