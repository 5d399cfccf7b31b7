// Backlog ranks (src/lib/rank.ts), property-style over seeded random runs: every key made between
// two neighbours sorts strictly between them (as JavaScript compares strings, which is how a
// collate "C" column sorts them), keys stay valid and distinct, and their length grows only as
// the moves force it: O(log n) for appends and prepends, about one digit per six inserts into one gap.
import { describe, expect, it } from 'vitest';
import { isRank, rankBetween } from '../../src/lib/rank.js';

/** A small seeded generator (mulberry32), so a failure can be run again as it was. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Inserts one key at `at` of a sorted list, checking it lands strictly between its neighbours. */
function insertAt(list: string[], at: number): string {
  const before = list[at - 1] ?? null;
  const after = list[at] ?? null;
  const key = rankBetween(before, after);
  expect(isRank(key), key).toBe(true);
  if (before !== null) expect(before < key, `${before} < ${key}`).toBe(true);
  if (after !== null) expect(key < after, `${key} < ${after}`).toBe(true);
  list.splice(at, 0, key);
  return key;
}

describe('rankBetween', () => {
  it('the first key, and keys at either end of one key', () => {
    expect(rankBetween(null, null)).toBe('a0');
    expect(rankBetween('a0', null)).toBe('a1');
    expect(rankBetween(null, 'a0')).toBe('Zz');
    expect(rankBetween('a0', 'a1')).toBe('a0V');
  });

  it('random inserts anywhere always sort strictly between their neighbours and stay distinct', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = random(seed);
      const list: string[] = [];
      for (let i = 0; i < 300; i++) insertAt(list, Math.floor(next() * (list.length + 1)));
      expect([...list].sort()).toEqual(list);
      expect(new Set(list).size).toBe(list.length);
    }
  });

  it('appends and prepends grow the length logarithmically', () => {
    const list: string[] = [];
    for (let i = 0; i < 20_000; i++) insertAt(list, list.length);
    expect(Math.max(...list.map((k) => k.length))).toBeLessThanOrEqual(4);
    const front: string[] = [];
    for (let i = 0; i < 20_000; i++) insertAt(front, 0);
    expect(Math.max(...front.map((k) => k.length))).toBeLessThanOrEqual(4);
  });

  it('inserts into one gap lengthen the key by about one digit per six moves, no faster', () => {
    for (const side of ['low', 'high'] as const) {
      const list = [rankBetween(null, null)];
      insertAt(list, 1);
      for (let n = 1; n <= 600; n++) {
        const key = insertAt(list, side === 'low' ? 1 : list.length - 1);
        expect(key.length, `after ${n} inserts`).toBeLessThanOrEqual(3 + Math.ceil(n / 5));
      }
    }
  });

  it('keys far below and above the start: the integer parts roll over their heads', () => {
    const low: string[] = ['A' + '0'.repeat(25) + '1'];
    for (let i = 0; i < 50; i++) insertAt(low, 0);
    const high: string[] = ['z' + 'z'.repeat(26)];
    for (let i = 0; i < 50; i++) insertAt(high, high.length);
    expect(rankBetween('Yzz', null)).toBe('Z0');
    expect(rankBetween('Zz', null)).toBe('a0');
    expect(rankBetween(null, 'b00')).toBe('az');
  });

  it('refuses neighbours out of order or not ranks', () => {
    expect(() => rankBetween('a1', 'a0')).toThrow(/out of order/);
    expect(() => rankBetween('a1', 'a1')).toThrow(/out of order/);
    for (const bad of ['', 'a', 'a00', '!x', 'A' + '0'.repeat(26), 'a0-']) expect(isRank(bad), bad).toBe(false);
  });
});
