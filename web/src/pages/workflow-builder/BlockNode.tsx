// One block on the canvas: its id, its kind's label, and — after a refused save — the server's
// message about it. Its handles: input on top, output below (drag from one to the other to
// connect; the Inputs section of the block's panel does the same from the keyboard, so the
// handles are left out of the accessibility tree's names).
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { BLOCK_SCHEMAS, type BlockKind } from './model';

export interface BlockNodeData extends Record<string, unknown> {
  kind: BlockKind;
  /** The server's message when this block is at fault. */
  error?: string;
}

export type BlockNodeType = Node<BlockNodeData, 'block'>;

export function BlockNode({ id, data, selected }: NodeProps<BlockNodeType>) {
  const schema = BLOCK_SCHEMAS[data.kind];
  return (
    <div className={`wf-node wf-node-${data.kind.split('.')[0]}${selected ? ' wf-node-selected' : ''}${data.error ? ' wf-node-error' : ''}`}>
      <Handle type="target" position={Position.Top} />
      <div className="wf-node-id">{id}</div>
      <div className="wf-node-kind">{schema.label}</div>
      {data.error && <div className="wf-node-message">{data.error}</div>}
      <Handle type="source" position={Position.Bottom} />
    </div>
  );
}
