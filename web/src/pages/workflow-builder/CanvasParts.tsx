// What the canvas draws: a block as a node, and an edge between two blocks.
//
// A block shows its id, its kind's label, and — while it has problems — how many, with the first
// one's words. The trigger sits above the blocks nothing feeds: how the workflow starts. Handles: input on top, output below (drag from one to the other to connect; the Inputs
// section of the block's panel does the same from the keyboard, so the handles are left out of the
// accessibility tree's names).
//
// Blocks flow top to bottom, so an edge into a block above its source (the one that closes a
// cycle, before the server refuses it) would run back over the edges between them; it bows out to
// the right instead, where it and its message stay readable.
import { BaseEdge, EdgeLabelRenderer, getBezierPath, Handle, Position, type EdgeProps, type Node, type NodeProps } from '@xyflow/react';
import { problemCount } from '@domain/workflow-check';
import { BLOCK_SCHEMAS, type BlockKind } from './model';

export interface BlockNodeData extends Record<string, unknown> {
  kind: BlockKind;
  /** How many problems the block has, and the first one's words. */
  problems: number;
  error?: string;
}

export type BlockNodeType = Node<BlockNodeData, 'block'>;

export interface TriggerNodeData extends Record<string, unknown> {
  title: string;
  detail: string;
  error?: string;
}

export type TriggerNodeType = Node<TriggerNodeData, 'trigger'>;
export type FlowNode = BlockNodeType | TriggerNodeType;

/** The node id of the trigger: no block can take it (a block id starts with a letter or digit). */
export const TRIGGER_ID = '_trigger';

/** The marker of a block (or trigger) with problems; its words are the node's name too. */
function ProblemMarker({ count }: { count: number }) {
  return (
    <div className="wf-node-badge">
      <span aria-hidden="true">⚠ </span>
      {problemCount(count)}
    </div>
  );
}

export function BlockNode({ id, data, selected }: NodeProps<BlockNodeType>) {
  const schema = BLOCK_SCHEMAS[data.kind];
  return (
    <div className={`wf-node wf-node-${data.kind.split('.')[0]}${selected ? ' wf-node-selected' : ''}${data.problems ? ' wf-node-error' : ''}`}>
      <Handle type="target" position={Position.Top} />
      <div className="wf-node-id">{id}</div>
      <div className="wf-node-kind">{schema.label}</div>
      {data.problems > 0 && <ProblemMarker count={data.problems} />}
      {data.error && <div className="wf-node-message">{data.error}</div>}
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}

export function TriggerNode({ data, selected }: NodeProps<TriggerNodeType>) {
  return (
    <div className={`wf-node wf-node-trigger${selected ? ' wf-node-selected' : ''}${data.error ? ' wf-node-error' : ''}`}>
      <div className="wf-node-id">Trigger</div>
      <div className="wf-node-title">{data.title}</div>
      <div className="wf-node-kind">{data.detail}</div>
      {data.error && <ProblemMarker count={1} />}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

/** How far a backward edge bows out beside the blocks. */
const BOW = 140;

export function FlowEdge(p: EdgeProps) {
  // Clearly above: blocks side by side (or overlapping) keep the ordinary curve.
  const back = p.targetY < p.sourceY - 30;
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
    <>
      <BaseEdge id={p.id} path={path} markerEnd={p.markerEnd} style={p.style} interactionWidth={p.interactionWidth} />
      {p.label && (
        // HTML, so a long message wraps; positioned by a transform the library computes per frame.
        <EdgeLabelRenderer>
          <div className="wf-edge-label nopan" style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
            {p.label}
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}
