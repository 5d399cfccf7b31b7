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
import { problemCount } from '@domain/workflow-check';
import { BlockNode, FlowEdge, TRIGGER_ID, TriggerNode, type FlowNode, type TriggerNodeData } from './CanvasParts';
import { LAYER_GAP } from './layout';
import { BLOCK_SCHEMAS, edgeId, inputsOf, type Draft, type XY } from './model';
import { onBlock, type Problem } from './problems';

export type Selection = { type: 'block'; id: string } | { type: 'edge'; id: string } | { type: 'trigger' } | null;

export interface CanvasProps {
  draft: Draft;
  selection: Selection;
  problems: readonly Problem[];
  trigger: TriggerNodeData;
  onSelect: (s: Selection) => void;
  onMove: (moves: Record<string, XY>) => void;
  onConnect: (from: string, to: string) => void;
  onRemoveBlocks: (ids: string[]) => void;
  onRemoveEdges: (ids: string[]) => void;
  onLayout: () => void;
}

const NODE_TYPES = { block: BlockNode, trigger: TriggerNode };
const EDGE_TYPES = { flow: FlowEdge };
const DELETE_KEYS = ['Delete', 'Backspace'];

function Flow(p: CanvasProps) {
  const flow = useReactFlow();
  // Sizes the canvas measured; kept beside the draft, which holds only what the user decides.
  const [measured, setMeasured] = useState<Record<string, { width: number; height: number }>>({});
  const { draft, selection, problems, trigger } = p;

  // The blocks nothing feeds start the run: the trigger sits above them and points at each.
  const roots = useMemo(() => draft.blocks.filter((b) => inputsOf(draft, b.id).length === 0).map((b) => b.id), [draft]);
  const nodes = useMemo<FlowNode[]>(() => {
    const ys = draft.blocks.map((b) => draft.positions[b.id]?.y ?? 0);
    const xs = roots.map((id) => draft.positions[id]?.x ?? 0);
    const at = { x: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0, y: (ys.length ? Math.min(...ys) : 0) - LAYER_GAP };
    const head: FlowNode = {
      id: TRIGGER_ID,
      type: 'trigger',
      position: at,
      measured: measured[TRIGGER_ID],
      draggable: false,
      deletable: false,
      selected: selection?.type === 'trigger',
      ariaLabel: `Trigger: ${trigger.title}${trigger.error ? ', 1 problem' : ''}`,
      data: trigger,
    };
    return [
      head,
      ...draft.blocks.map((b): FlowNode => {
        const mine = onBlock(problems, b.id);
        return {
          id: b.id,
          type: 'block',
          position: draft.positions[b.id] ?? { x: 0, y: 0 },
          measured: measured[b.id],
          selected: selection?.type === 'block' && selection.id === b.id,
          ariaLabel: `Block ${b.id} (${BLOCK_SCHEMAS[b.kind].label})${mine.length ? `, ${problemCount(mine.length)}` : ''}`,
          data: { kind: b.kind, problems: mine.length, error: mine[0]?.short },
        };
      }),
    ];
  }, [draft.blocks, draft.positions, measured, selection, problems, roots, trigger]);
  const edges = useMemo<Edge[]>(
    () => [
      ...roots.map(
        (id): Edge => ({
          id: `${TRIGGER_ID}->${id}`,
          type: 'flow',
          source: TRIGGER_ID,
          target: id,
          selectable: false,
          deletable: false,
          focusable: false,
          className: 'wf-edge-trigger',
          markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: '#8c96a3' },
        }),
      ),
      ...draft.edges.map((e) => {
        const id = edgeId(e);
        const bad = problems.find((x) => x.edge === id);
        return {
          id,
          type: 'flow',
          source: e.from,
          target: e.to,
          selected: selection?.type === 'edge' && selection.id === id,
          markerEnd: { type: MarkerType.ArrowClosed, width: 16, height: 16, color: bad ? '#b42318' : '#555d66' },
          className: bad ? 'wf-edge-error' : undefined,
          label: bad?.short,
          ariaLabel: `Edge from ${e.from} to ${e.to}${bad ? `: ${bad.short}` : ''}`,
        };
      }),
    ],
    [draft.edges, selection, problems, roots],
  );

  const onNodesChange = useCallback(
    (all: NodeChange<FlowNode>[]) => {
      // The trigger is not a block: it is measured like one, but cannot move or go, and selecting
      // it opens its own panel.
      const triggerPick = all.find((c) => c.type === 'select' && c.id === TRIGGER_ID);
      const changes = all.filter((c) => c.type === 'dimensions' || !('id' in c) || c.id !== TRIGGER_ID);
      const next = applyNodeChanges(changes, nodes);
      const sizes: Record<string, { width: number; height: number }> = {};
      const moves: Record<string, XY> = {};
      for (const c of changes) {
        if (c.type === 'dimensions' && c.dimensions) sizes[c.id] = c.dimensions;
        if (c.type === 'position' && c.position) moves[c.id] = next.find((n) => n.id === c.id)?.position ?? c.position;
      }
      // Only real changes: a measure that repeats itself must not render the canvas again.
      const changed = Object.entries(sizes).filter(([id, d]) => measured[id]?.width !== d.width || measured[id]?.height !== d.height);
      if (changed.length) setMeasured((m) => ({ ...m, ...Object.fromEntries(changed) }));
      if (Object.keys(moves).length) p.onMove(moves);
      const removed = changes.flatMap((c) => (c.type === 'remove' ? [c.id] : []));
      if (removed.length) p.onRemoveBlocks(removed);
      const picked = changes.find((c) => c.type === 'select' && c.selected);
      if (triggerPick?.type === 'select' && triggerPick.selected) p.onSelect({ type: 'trigger' });
      else if (picked?.type === 'select') p.onSelect({ type: 'block', id: picked.id });
      else if (triggerPick && selection?.type === 'trigger') p.onSelect(null);
      else if (changes.some((c) => c.type === 'select' && !c.selected && selection?.type === 'block' && c.id === selection.id)) p.onSelect(null);
    },
    [nodes, p, selection, measured],
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
          disabled={!selection || selection.type === 'trigger'}
          onClick={() => (selection?.type === 'block' ? p.onRemoveBlocks([selection.id]) : selection?.type === 'edge' && p.onRemoveEdges([selection.id]))}
        >
          {selection?.type === 'edge' ? 'Delete selected edge' : selection?.type === 'block' ? `Delete block “${selection.id}”` : 'Delete selected'}
        </button>
      </div>
      <div className="wf-canvas" aria-label="Workflow graph" role="region">
        <ReactFlow<FlowNode>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={(c) => c.source && c.target && c.source !== TRIGGER_ID && p.onConnect(c.source, c.target)}
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
