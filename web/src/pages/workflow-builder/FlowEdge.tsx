// An edge on the canvas. Blocks flow top to bottom, so an edge into a block above its source (the
// one that closes a cycle, before the server refuses it) would run back over the edges between
// them; it bows out to the right instead, where it and its message stay readable.
import { BaseEdge, getBezierPath, type EdgeProps } from '@xyflow/react';

/** How far a backward edge bows out beside the blocks. */
const BOW = 140;

export function FlowEdge(p: EdgeProps) {
  const back = p.targetY < p.sourceY + 10;
  let path: string;
  let labelX: number;
  let labelY: number;
  if (back) {
    const side = Math.max(p.sourceX, p.targetX) + BOW;
    path = `M ${p.sourceX},${p.sourceY} C ${p.sourceX + 40},${p.sourceY + 60} ${side},${p.sourceY + 40} ${side},${(p.sourceY + p.targetY) / 2} S ${p.targetX + 40},${p.targetY - 60} ${p.targetX},${p.targetY}`;
    labelX = side;
    labelY = (p.sourceY + p.targetY) / 2;
  } else {
    [path, labelX, labelY] = getBezierPath(p);
  }
  return (
    <BaseEdge
      id={p.id}
      path={path}
      labelX={labelX}
      labelY={labelY}
      label={p.label}
      labelBgPadding={[4, 2]}
      labelBgBorderRadius={3}
      markerEnd={p.markerEnd}
      style={p.style}
      interactionWidth={p.interactionWidth}
    />
  );
}
