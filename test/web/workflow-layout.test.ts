// The workflow builder's auto-layout, without a browser: every edge points down a layer, a layer's
// blocks follow the blocks feeding them, a cycle cannot hang it; and where a new block goes.
import { describe, expect, it } from 'vitest';
import { COLUMN_GAP, freeSpot, LAYER_GAP, layeredLayout } from '../../web/src/pages/workflow-builder/layout';

const layer = (y: number) => y / LAYER_GAP;

describe('layeredLayout', () => {
  it('puts each block one layer below the longest path to it', () => {
    const pos = layeredLayout(['a', 'b', 'c', 'd'], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'a', to: 'c' },
      { from: 'd', to: 'c' },
    ]);
    expect([pos.a, pos.b, pos.c, pos.d].map((p) => layer(p.y))).toEqual([0, 1, 2, 0]);
  });

  it('orders a layer by the positions of the blocks feeding it, so edges do not cross', () => {
    // x feeds q and y feeds p: below them p goes under y (right), q under x (left).
    const pos = layeredLayout(['x', 'y', 'p', 'q'], [
      { from: 'y', to: 'p' },
      { from: 'x', to: 'q' },
    ]);
    expect([pos.x.x, pos.y.x]).toEqual([0, COLUMN_GAP]);
    expect([pos.q.x, pos.p.x]).toEqual([0, COLUMN_GAP]);
  });

  it('places a block fed by two at the mean of their slots, and blocks fed by none in list order', () => {
    const pos = layeredLayout(['a', 'b', 'c', 'm', 'r'], [
      { from: 'a', to: 'r' },
      { from: 'c', to: 'm' },
      { from: 'a', to: 'm' },
    ]);
    expect([pos.a.x, pos.b.x, pos.c.x]).toEqual([0, COLUMN_GAP, 2 * COLUMN_GAP]);
    // r hangs under a (slot 0), m between a and c (mean slot 1): r first.
    expect([pos.r, pos.m]).toEqual([
      { x: 0, y: LAYER_GAP },
      { x: COLUMN_GAP, y: LAYER_GAP },
    ]);
  });

  it('ends on a cycle and ignores edges naming unknown blocks', () => {
    const pos = layeredLayout(['a', 'b'], [
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
      { from: 'a', to: 'ghost' },
    ]);
    expect(Object.keys(pos).sort()).toEqual(['a', 'b']);
    for (const p of Object.values(pos)) expect(layer(p.y)).toBeLessThan(2);
  });

  it('ignores an edge from a block to itself, and places nothing for no blocks', () => {
    expect(layeredLayout(['a'], [{ from: 'a', to: 'a' }])).toEqual({ a: { x: 0, y: 0 } });
    expect(layeredLayout([], [])).toEqual({});
  });
});

describe('freeSpot', () => {
  it('starts at the origin on an empty canvas', () => {
    expect(freeSpot({})).toEqual({ x: 0, y: 0 });
  });

  it('goes one layer below the lowest block, in its column', () => {
    expect(freeSpot({ a: { x: 0, y: 0 }, b: { x: 300, y: 420 }, c: { x: 90, y: 140 } })).toEqual({ x: 300, y: 420 + LAYER_GAP });
  });
});
