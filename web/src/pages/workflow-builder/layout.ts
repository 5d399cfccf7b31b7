// Auto-layout: blocks in layers, top to bottom (the canvas sits between the palette and the panel,
// so it is taller than wide). A block's layer is the longest path to it from a block nothing feeds
// (so every edge points downwards); within a layer blocks are ordered by the mean position of the
// blocks feeding them in the layer above, which keeps most edges from crossing. Small and
// dependency free: workflows have tens of blocks, not thousands.
import type { EdgeDef, XY } from './model';

/** Between blocks side by side in a layer, and between layers. */
export const COLUMN_GAP = 210;
export const LAYER_GAP = 140;

/** Positions for `ids`; edges naming unknown blocks are ignored, and a cycle cannot hang it. */
export function layeredLayout(ids: readonly string[], edges: readonly EdgeDef[]): Record<string, XY> {
  const known = new Set(ids);
  const links = edges.filter((e) => known.has(e.from) && known.has(e.to) && e.from !== e.to);
  const layer = new Map(ids.map((id) => [id, 0]));
  // Longest path by relaxation: at most |ids| rounds; a cycle stops growing after that bound.
  for (let round = 0; round < ids.length; round++) {
    let changed = false;
    for (const e of links) {
      const next = layer.get(e.from)! + 1;
      if (next > layer.get(e.to)! && next < ids.length) {
        layer.set(e.to, next);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const layers: string[][] = [];
  for (const id of ids) (layers[layer.get(id)!] ??= []).push(id);
  const slot = new Map<string, number>();
  const positions: Record<string, XY> = {};
  layers.forEach((members, l) => {
    if (!members) return;
    // Barycentre of the feeding blocks' slots; blocks with none keep their list order.
    const weight = (id: string, i: number): number => {
      const from = links.filter((e) => e.to === id && slot.has(e.from)).map((e) => slot.get(e.from)!);
      return from.length ? from.reduce((a, b) => a + b, 0) / from.length : i;
    };
    const ordered = members.map((id, i) => ({ id, w: weight(id, i), i })).sort((a, b) => a.w - b.w || a.i - b.i);
    ordered.forEach(({ id }, s) => {
      slot.set(id, s);
      positions[id] = { x: s * COLUMN_GAP, y: l * LAYER_GAP };
    });
  });
  return positions;
}

/** Where a new block goes with nothing selected: below the lowest block (the end of the flow). */
export function freeSpot(positions: Record<string, XY>): XY {
  const all = Object.values(positions);
  if (!all.length) return { x: 0, y: 0 };
  const lowest = all.reduce((a, b) => (b.y > a.y ? b : a));
  return { x: lowest.x, y: lowest.y + LAYER_GAP };
}
