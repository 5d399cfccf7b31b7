// The graph: the draft's blocks as @xyflow/react nodes and its edges, controlled by the builder's
// state (the draft is the truth; the canvas reports drags, selections, connections and deletions
// back). Only this chunk imports @xyflow/react and its stylesheet, so the library loads with the
// builder's route and never in the hub's initial bundle.
import {
  applyNodeChanges,
  Background,
  Controls,
  MarkerType,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { BlockNode, FlowEdge, type BlockNodeType } from './CanvasParts';
import { edgeId, type Draft, type XY } from './model';
import type { Problem } from './problems';

export type Selection = { type: 'block'; id: string } | { type: 'edge'; id: string } | null;

export interface CanvasProps {
  draft: Draft;
  selection: Selection;
  problem: Problem | null;
  onSelect: (s: Selection) => void;
  onMove: (moves: Record<string, XY>) => void;
  onConnect: (from: string, to: string) => void;
  onRemoveBlocks: (ids: string[]) => void;
  onRemoveEdges: (ids: string[]) => void;
  onLayout: () => void;
}

const NODE_TYPES = { block: BlockNode };
const EDGE_TYPES = { flow: FlowEdge };
const DELETE_KEYS = ['Delete', 'Backspace'];

function Flow(p: CanvasProps) {
  const flow = useReactFlow();
  // Sizes the canvas measured; kept beside the draft, which holds only what the user decides.
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const { draft, selection, problem } = p;

  const nodes = useMemo<BlockNodeType[]>(
    () =>
      draft.blocks.map((b) => ({
        id: b.id,
        type: 'block',
        position: draft.positions[b.id] ?? { x: 0, y: 0 },
        measured: measured[b.id],
        selected: selection?.type === 'block' && selection.id === b.id,
        ariaLabel: `Block ${b.id}${problem?.block?.id === b.id ? ', has a problem' : ''}`,
        data: { kind: b.kind, error: problem?.block?.id === b.id ? problem.short : undefined },
      })),
    [draft.blocks, draft.positions, measured, selection, problem],
  );
  const edges = useMemo<Edge[]>(
    () =>
      draft.edges.map((e) => {
        const id = edgeId(e);
        const bad = problem?.edge === id;
        return {
          id,
          type: 'flow',
          source: e.from,
          target: e.to,
          selected: selection?.type === 'edge' && selection.id === id,
          markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: bad ? '#b42318' : '#555d66' },
          className: bad ? 'wf-edge-error' : undefined,
          label: bad ? problem.short : undefined,
          ariaLabel: `Edge from ${e.from} to ${e.to}${bad ? `: ${problem.message}` : ''}`,
        };
      }),
    [draft.edges, selection, problem],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<BlockNodeType>[]) => {
      const next = applyNodeChanges(changes, nodes);
      const sizes: Record<string, { width: number; height: number }> = {};
      const moves: Record<string, XY> = {};
      for (const c of changes) {
        if (c.type === 'dimensions' && c.dimensions) sizes[c.id] = c.dimensions;
        if (c.type === 'position' && c.position) moves[c.id] = next.find((n) => n.id === c.id)?.position ?? c.position;
      }
      if (Object.keys(sizes).length) setMeasured((m) => ({ ...m, ...sizes }));
      if (Object.keys(moves).length) p.onMove(moves);
      const removed = changes.flatMap((c) => (c.type === 'remove' ? [c.id] : []));
      if (removed.length) p.onRemoveBlocks(removed);
      const picked = changes.find((c) => c.type === 'select' && c.selected);
      if (picked?.type === 'select') p.onSelect({ type: 'block', id: picked.id });
      else if (changes.some((c) => c.type === 'select' && !c.selected && selection?.type === 'block' && c.id === selection.id)) p.onSelect(null);
    },
    [nodes, p, selection],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const removed = changes.flatMap((c) => (c.type === 'remove' ? [c.id] : []));
      if (removed.length) p.onRemoveEdges(removed);
      const picked = changes.find((c) => c.type === 'select' && c.selected);
      if (picked?.type === 'select') p.onSelect({ type: 'edge', id: picked.id });
      else if (changes.some((c) => c.type === 'select' && !c.selected && selection?.type === 'edge' && c.id === selection.id)) p.onSelect(null);
    },
    [p, selection],
  );
  const fit = useCallback(() => void flow.fitView({ padding: 0.2, maxZoom: 1, duration: 0 }), [flow]);
  // A block added or removed: everything back in view (once the new node has been measured).
  const count = draft.blocks.length;
  useEffect(() => {
    const t = setTimeout(fit, 50);
    return () => clearTimeout(t);
  }, [count, fit]);

  return (
    <div className="wf-canvas-wrap">
      <div className="wf-canvas-tools" role="toolbar" aria-label="Canvas">
        <button
          type="button"
          className="button-secondary"
          onClick={() => {
            p.onLayout();
            // After the new positions render.
            requestAnimationFrame(fit);
          }}
        >
          Auto-layout
        </button>
        <button type="button" className="button-secondary" onClick={fit}>
          Fit view
        </button>
        <button
          type="button"
          className="button-secondary"
          disabled={!selection}
          onClick={() => (selection?.type === 'block' ? p.onRemoveBlocks([selection.id]) : selection && p.onRemoveEdges([selection.id]))}
        >
          {selection?.type === 'edge' ? 'Delete selected edge' : selection ? `Delete block ${selection.id}` : 'Delete selected'}
        </button>
      </div>
      <div className="wf-canvas" aria-label="Workflow graph" role="region">
        <ReactFlow<BlockNodeType>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={(c) => c.source && c.target && p.onConnect(c.source, c.target)}
          deleteKeyCode={DELETE_KEYS}
          multiSelectionKeyCode={null}
          selectionKeyCode={null}
          fitView
          fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
          minZoom={0.3}
        >
          <Background gap={20} />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
    </div>
  );
}

export function Canvas(props: CanvasProps) {
  return (
    <ReactFlowProvider>
      <Flow {...props} />
    </ReactFlowProvider>
  );
}
