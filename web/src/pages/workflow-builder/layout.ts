// Auto-layout: blocks in columns, left to right. A block's column is the longest path to it from a
// block nothing feeds (so every edge points rightwards); within a column blocks are ordered by the
// mean row of the blocks feeding them, which keeps most edges from crossing. Small and dependency
// free: workflows have tens of blocks, not thousands.
import type { EdgeDef, XY } from './model';

export const COLUMN_GAP = 280;
export const ROW_GAP = 120;

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
  const columns: string[][] = [];
  for (const id of ids) (columns[layer.get(id)!] ??= []).push(id);
  const row = new Map<string, number>();
  const positions: Record<string, XY> = {};
  columns.forEach((column, c) => {
    if (!column) return;
    // Barycentre of the feeding blocks' rows; blocks with none keep their list order.
    const weight = (id: string, i: number): number => {
      const from = links.filter((e) => e.to === id && row.has(e.from)).map((e) => row.get(e.from)!);
      return from.length ? from.reduce((a, b) => a + b, 0) / from.length : i;
    };
    const ordered = column.map((id, i) => ({ id, w: weight(id, i), i })).sort((a, b) => a.w - b.w || a.i - b.i);
    ordered.forEach(({ id }, r) => {
      row.set(id, r);
      positions[id] = { x: c * COLUMN_GAP, y: r * ROW_GAP };
    });
  });
  return positions;
}

/** Where a new block goes: below everything already placed, in the first column. */
export function freeSpot(positions: Record<string, XY>): XY {
  const ys = Object.values(positions).map((p) => p.y);
  return { x: 0, y: ys.length ? Math.max(...ys) + ROW_GAP : 0 };
}
